import HaulCore

/// The header line: totals across all downloads (on screen or not) and the metered mode.
enum HeaderView {
    static func draw(_ model: DownloadListModel, metered: String, into grid: inout Grid, row: Int, glyphs: Glyphs) {
        let style = Style(reverse: true)
        grid.clear(row: row, style: style)
        var x = grid.write(" haul ", row: row, column: 0, style: Style(bold: true, reverse: true))
        x = grid.write(" \(glyphs.down) \(Formatting.rate(model.totalSpeed))  ", row: row, column: x, style: Style(bold: true, reverse: true))
        let parts: [(DownloadState, String)] = [(.downloading, "active"), (.waiting, "waiting"), (.paused, "paused"), (.finished, "done"), (.failed, "failed")]
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
        if columns.bar > 0 { x = grid.write(DisplayWidth.fit("PROGRESS", width: columns.bar) + " ", row: row, column: x, style: .bold) }
        if columns.percent > 0 { x = grid.write(DisplayWidth.right("%", width: columns.percent) + " ", row: row, column: x, style: .bold) }
        if columns.size > 0 { x = grid.write(DisplayWidth.fit("SIZE", width: columns.size) + " ", row: row, column: x, style: .bold) }
        if columns.speed > 0 { x = grid.write(DisplayWidth.right("SPEED", width: columns.speed) + " ", row: row, column: x, style: .bold) }
        if columns.eta > 0 { x = grid.write(DisplayWidth.right("ETA", width: columns.eta) + " ", row: row, column: x, style: .bold) }
        if columns.state > 0 { grid.write(DisplayWidth.fit("STATE", width: columns.state), row: row, column: grid.width - columns.state, style: .bold) }
    }
}

/// The key hints on the last line.
enum FooterView {
    static let hints: [(String, String)] = [
        ("a", "Add"), ("p", "Pause"), ("c", "Cancel"), ("d", "Remove"), ("r", "Retry"), ("P", "All"),
        ("/", "Filter"), ("s", "Sort"), ("Enter", "Details"), ("?", "Help"), ("q", "Quit"),
    ]

    static func draw(into grid: inout Grid, row: Int) {
        grid.clear(row: row)
        var x = 0
        for (key, label) in hints {
            let width = DisplayWidth.of(key) + DisplayWidth.of(label) + 3
            if x + width > grid.width { break }
            x = grid.write(key, row: row, column: x, style: Style(color: .cyan, bold: true))
            x = grid.write(" " + label + "  ", row: row, column: x, style: .plain)
        }
    }
}
