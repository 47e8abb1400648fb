import HaulCore

/// The header line: totals across all downloads (on screen or not), a graph of the total speed
/// over the last minute where there is room, the speed limit, the RPC port while served and the
/// metered mode (with the data budget's use while metered).
enum HeaderView {
    /// The most columns the graph takes, and the fewest it is drawn in.
    static let graphWidth = (most: 30, fewest: 10)

    /// - Parameter speed: what is moving now (see `SpeedGraphs.current`).
    static func draw(
        _ model: DownloadListModel, network: NetworkStatus, speed: Double, history: [Double] = [],
        into grid: inout Grid, row: Int, glyphs: Glyphs
    ) {
        let style = Style(reverse: true)
        grid.clear(row: row, style: style)
        var x = grid.write(" haul ", row: row, column: 0, style: Style(bold: true, reverse: true))
        x = grid.write(
            " \(glyphs.down) \(Formatting.rate(speed))  ", row: row, column: x,
            style: Style(bold: true, reverse: true))
        let parts: [(DownloadState.Kind, String)] = [
            (.downloading, "active"), (.waiting, "waiting"), (.paused, "paused"), (.finished, "done"),
            (.failed, "failed"),
        ]
        let right = " " + status(network) + " "
        let start = max(x, grid.width - DisplayWidth.of(right))
        // Zero counts are left out (but "active" always shows), and a count that does not fit
        // goes whole, so the limit and the metered mode always show.
        var counts = ""
        for (state, word) in parts where state == .downloading || model.count(state) > 0 {
            let part = (counts.isEmpty ? "" : "  ") + "\(model.count(state)) \(word)"
            guard x + DisplayWidth.of(counts + part) < start || counts.isEmpty else { break }
            counts += part
        }
        let end = grid.write(counts, row: row, column: x, style: style, limit: max(0, start - x - 1))
        let room = start - end - 2
        if room >= graphWidth.fewest {
            let width = min(graphWidth.most, room)
            grid.write(
                Sparkline.render(history, width: width, unicode: glyphs == .unicode), row: row,
                column: start - width - 1, style: Style(color: .cyan, reverse: true))
        }
        grid.write(right, row: row, column: start, style: style)
    }

    /// "limit 2.0 MiB/s · rpc :6800 · metered: on, 2.0 MiB of 8.0 MiB today".
    static func status(_ network: NetworkStatus) -> String {
        var parts: [String] = []
        if let limit = network.speedLimit {
            if network.speedLimitActive {
                let until = limit.window.map { " until \(DailyWindow.clock($0.end))" } ?? ""
                parts.append(limit.rate == 0 ? "held\(until)" : "limit \(Formatting.rate(Double(limit.rate)))")
            } else if let window = limit.window {
                parts.append("no limit until \(DailyWindow.clock(window.start))")
            }
        }
        if let address = network.rpcAddress, let colon = address.lastIndex(of: ":") {
            parts.append("rpc \(address[colon...])")
        }
        if let remote = network.remote {
            // An aria2 engine has no metered mode: the header names the engine instead.
            parts.append(remote.label)
            if !remote.engine.isHaul { return parts.joined(separator: " · ") }
        }
        var metered = "metered: \(network.label)"
        if network.isMetered, let budget = network.budget {
            metered +=
                ", \(Formatting.bytes(network.budgetUsed))/\(Formatting.bytes(budget.bytes)) \(budget.period.current)"
        }
        parts.append(metered)
        return parts.joined(separator: " · ")
    }
}

/// Column titles above the list. A click on a title sorts by its column.
enum TitleView {
    /// One column's title: where it is, how it is aligned, and the order a click on it sorts by.
    struct Title {
        var text: String
        var columns: Range<Int>
        var alignedRight: Bool
        var sort: SortOrder?
    }

    /// The titles shown at `width` columns, left to right; drawing and clicks both read them.
    static func titles(_ c: Columns, width: Int) -> [Title] {
        var titles: [Title] = []
        var x = Columns.marker
        func add(_ text: String, _ span: Int, right: Bool = false, sort: SortOrder?) {
            guard span > 0 else { return }
            titles.append(Title(text: text, columns: x..<(x + span), alignedRight: right, sort: sort))
            x += span + 1
        }
        add("NAME", c.name, sort: .name)
        add("PROGRESS", c.bar, sort: .progress)
        add("%", c.percent, right: true, sort: .progress)
        add("SIZE", c.size, sort: nil)
        add("SPEED", c.speed, right: true, sort: .speed)
        add("ETA", c.eta, right: true, sort: nil)
        // The state is at the right edge, whatever the columns before it left over.
        x = width - c.state
        add("STATE", c.state, sort: .state)
        return titles
    }

    /// The order a click on the title at `column` sorts by.
    static func sort(at column: Int, _ columns: Columns, width: Int) -> SortOrder? {
        titles(columns, width: width).first { $0.columns.contains(column) }?.sort
    }

    static func draw(_ columns: Columns, into grid: inout Grid, row: Int) {
        grid.clear(row: row)
        for title in titles(columns, width: grid.width) {
            let span = title.columns.count
            grid.write(
                title.alignedRight
                    ? DisplayWidth.right(title.text, width: span) : DisplayWidth.fit(title.text, width: span),
                row: row, column: title.columns.lowerBound, style: .bold)
        }
    }
}

/// The key hints on the last line; "? Help  q Quit" stay pinned to the right edge.
enum FooterView {
    static let hints: [(String, String)] = [
        ("a", "Add"), ("p", "Pause"), ("c", "Cancel"), ("d", "Remove"), ("b", "Limit"), ("l", "Its limit"),
        ("r", "Retry"), ("P", "All"), ("/", "Filter"), ("s", "Sort"), ("K/J", "Move"), ("Enter", "Details"),
    ]
    static let pinned: [(String, String)] = [("?", "Help"), ("q", "Quit")]

    static func draw(into grid: inout Grid, row: Int) {
        grid.clear(row: row)
        for placed in placement(width: grid.width) {
            _ = put(placed.hint, into: &grid, row: row, column: placed.column)
        }
    }

    /// Where each hint shown at `width` columns starts; a click on one does what its key does.
    static func placement(width screenWidth: Int) -> [(hint: (String, String), column: Int)] {
        let pinnedWidth = pinned.reduce(0) { $0 + width($1) }
        var placed: [(hint: (String, String), column: Int)] = []
        var x = 0
        for hint in hints {
            if x + width(hint) > screenWidth - pinnedWidth { break }
            placed.append((hint, x))
            x += width(hint)
        }
        x = max(x, screenWidth - pinnedWidth)
        for hint in pinned {
            placed.append((hint, x))
            x += width(hint)
        }
        return placed
    }

    /// The key of the hint at `column`, if one is there.
    static func key(at column: Int, width screenWidth: Int) -> Key? {
        guard let hit = placement(width: screenWidth).last(where: { $0.column <= column }),
            column < hit.column + width(hit.hint) - 2
        else { return nil }
        switch hit.hint.0 {
        case "Enter": return .enter
        case "K/J": return .character("K")
        case let key: return key.first.map(Key.character)
        }
    }

    private static func width(_ hint: (String, String)) -> Int { DisplayWidth.of(hint.0) + DisplayWidth.of(hint.1) + 3 }

    private static func put(_ hint: (String, String), into grid: inout Grid, row: Int, column: Int) -> Int {
        let x = grid.write(hint.0, row: row, column: column, style: Style(color: .cyan, bold: true))
        return grid.write(" " + hint.1 + "  ", row: row, column: x, style: .plain)
    }
}
