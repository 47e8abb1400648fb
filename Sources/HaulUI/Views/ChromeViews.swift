import HaulCore

/// The header line: totals across all downloads (on screen or not) and the metered mode.
enum HeaderView {
    static func draw(_ model: DownloadListModel, metered: String, into grid: inout Grid, row: Int, glyphs: Glyphs) {
        let style = Style(reverse: true)
        grid.clear(row: row, style: style)
        var x = grid.write(" haul ", row: row, column: 0, style: Style(bold: true, reverse: true))
        x = grid.write(
            " \(glyphs.down) \(Formatting.rate(model.totalSpeed))  ", row: row, column: x,
            style: Style(bold: true, reverse: true))
        let parts: [(DownloadState, String)] = [
            (.downloading, "active"), (.waiting, "waiting"), (.paused, "paused"), (.finished, "done"),
            (.failed, "failed"),
        ]
        // Zero counts are left out (but "active" always shows) so the metered mode always fits.
        let counts = parts.filter { $0.0 == .downloading || model.count($0.0) > 0 }
            .map { "\(model.count($0.0)) \($0.1)" }.joined(separator: "  ")
        let right = " metered: \(metered) "
        let start = max(x, grid.width - DisplayWidth.of(right))
        grid.write(counts, row: row, column: x, style: style, limit: max(0, start - x - 1))
        grid.write(right, row: row, column: start, style: style)
    }
}

/// Column titles above the list.
enum TitleView {
    static func draw(_ columns: Columns, into grid: inout Grid, row: Int) {
        grid.clear(row: row)
        var x = Columns.marker
        x = grid.write(DisplayWidth.fit("NAME", width: columns.name) + " ", row: row, column: x, style: .bold)
        if columns.bar > 0 {
            x = grid.write(DisplayWidth.fit("PROGRESS", width: columns.bar) + " ", row: row, column: x, style: .bold)
        }
        if columns.percent > 0 {
            x = grid.write(DisplayWidth.right("%", width: columns.percent) + " ", row: row, column: x, style: .bold)
        }
        if columns.size > 0 {
            x = grid.write(DisplayWidth.fit("SIZE", width: columns.size) + " ", row: row, column: x, style: .bold)
        }
        if columns.speed > 0 {
            x = grid.write(DisplayWidth.right("SPEED", width: columns.speed) + " ", row: row, column: x, style: .bold)
        }
        if columns.eta > 0 {
            x = grid.write(DisplayWidth.right("ETA", width: columns.eta) + " ", row: row, column: x, style: .bold)
        }
        if columns.state > 0 {
            grid.write(
                DisplayWidth.fit("STATE", width: columns.state), row: row, column: grid.width - columns.state,
                style: .bold)
        }
    }
}

/// The key hints on the last line; "? Help  q Quit" stay pinned to the right edge.
enum FooterView {
    static let hints: [(String, String)] = [
        ("a", "Add"), ("p", "Pause"), ("c", "Cancel"), ("d", "Remove"), ("r", "Retry"), ("P", "All"),
        ("/", "Filter"), ("s", "Sort"), ("Enter", "Details"),
    ]
    static let pinned: [(String, String)] = [("?", "Help"), ("q", "Quit")]

    static func draw(into grid: inout Grid, row: Int) {
        grid.clear(row: row)
        let pinnedWidth = pinned.reduce(0) { $0 + width($1) }
        var x = 0
        for hint in hints {
            if x + width(hint) > grid.width - pinnedWidth { break }
            x = put(hint, into: &grid, row: row, column: x)
        }
        x = max(x, grid.width - pinnedWidth)
        for hint in pinned { x = put(hint, into: &grid, row: row, column: x) }
    }

    private static func width(_ hint: (String, String)) -> Int { DisplayWidth.of(hint.0) + DisplayWidth.of(hint.1) + 3 }

    private static func put(_ hint: (String, String), into grid: inout Grid, row: Int, column: Int) -> Int {
        let x = grid.write(hint.0, row: row, column: column, style: Style(color: .cyan, bold: true))
        return grid.write(" " + hint.1 + "  ", row: row, column: x, style: .plain)
    }
}
