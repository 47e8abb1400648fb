import FoundationEssentials
import HaulCore

/// The lines under an opened row (`x`, `→`, or a click on its marker): its pieces, its
/// connections and its last notice, without leaving the list. Always ``lineCount`` lines, so
/// opening or closing a row is the only thing that moves the rows below it.
enum ExpandedRowView {
    /// Lines under an opened row.
    static let lineCount = 3
    /// Where the lines start, under the name; the label takes the first columns.
    static let indent = 4
    static let labelWidth = 13
    /// Points of each connection's graph on the connections line.
    static let connectionGraph = 6

    /// Draws line `line` (0 = pieces, 1 = connections, 2 = last notice) of `d` on `row`.
    static func draw(
        line: Int, of d: ListRow, sample: ProgressSample?, history: SpeedHistory?, pieces: [Int64: SpeedHistory],
        into grid: inout Grid, row: Int, glyphs: Glyphs, now: Date
    ) {
        grid.clear(row: row)
        let width = grid.width - indent - labelWidth
        guard width > 0 else { return }
        let labels = ["pieces", "connections", "last notice"]
        let x = grid.write(
            DisplayWidth.fit(labels[min(line, labels.count - 1)], width: labelWidth), row: row, column: indent,
            style: .dim)
        let parts: [(String, Style)]
        switch line {
        case 0: parts = piecesLine(d, sample: sample, width: width, glyphs: glyphs)
        case 1:
            parts = connectionsLine(d, sample: sample, history: history, pieces: pieces, width: width, glyphs: glyphs)
        default: parts = [noticeLine(d, now: now)]
        }
        var column = x
        for (text, style) in parts where column < grid.width {
            let room = grid.width - column
            column = grid.write(
                DisplayWidth.fit(text, width: room, pad: false, ellipsis: glyphs.ellipsis), row: row, column: column,
                style: style)
        }
    }

    /// The map of a file fetched in pieces and how many are done; otherwise why it is one piece.
    static func piecesLine(_ d: ListRow, sample: ProgressSample?, width: Int, glyphs: Glyphs) -> [(String, Style)] {
        // A finished file's map is gone: in one piece or in many, all of it is on disk.
        if d.state == .finished { return [("all done", .plain)] }
        let live = d.state == .downloading ? sample?.segments : nil
        guard let total = d.totalBytes, let segments = live ?? d.segments.map(SegmentMapView.live) else {
            if d.resumable == false { return [("one piece: the server does not send parts of files", .plain)] }
            if d.totalBytes == nil { return [("one piece: the size is not known yet", .plain)] }
            return [("one piece", .plain)]
        }
        let done = segments.filter { $0.segment.next >= $0.segment.end }.count
        let summary = "  \(done) of \(segments.count) done"
        let barWidth = max(0, min(40, width - DisplayWidth.of(summary)))
        return [
            (SegmentMapView.bar(segments, total: total, width: barWidth, glyphs: glyphs), Style(color: .cyan)),
            (summary, .plain),
        ]
    }

    /// How many connections run, each one's speed and its last seconds as a small graph; as many
    /// as fit, then how many more.
    static func connectionsLine(
        _ d: ListRow, sample: ProgressSample?, history: SpeedHistory?, pieces: [Int64: SpeedHistory], width: Int,
        glyphs: Glyphs
    ) -> [(String, Style)] {
        let limit = d.connections.map { " (at most \($0))" } ?? ""
        guard d.state == .downloading, let sample else { return [("none running\(limit)", .dim)] }
        let unicode = glyphs == .unicode
        func item(_ rate: Double, _ points: [Double]?) -> String {
            let graph = points.map {
                " " + Sparkline.render($0, width: min(connectionGraph, $0.count), unicode: unicode)
            }
            return Formatting.rate(rate) + (graph ?? "")
        }
        var items: [String] = []
        if let segments = sample.segments {
            for piece in segments {
                guard let rate = piece.bytesPerSecond else { continue }
                items.append(item(rate, pieces[piece.segment.start]?.points))
            }
        } else {
            items.append(item(sample.bytesPerSecond, history?.points))
        }
        var text = "\(items.count)\(limit):"
        for (i, entry) in items.enumerated() {
            let rest = items.count - i - 1
            let next = (i == 0 ? " " : " · ") + entry
            // The last item shown leaves room for the count of those that do not fit.
            let reserve = rest > 0 ? DisplayWidth.of(" · +\(rest) more") : 0
            if DisplayWidth.of(text + next) + reserve > width {
                text += (i == 0 ? " " : " · ") + "+\(items.count - i) more"
                break
            }
            text += next
        }
        return [(text, .plain)]
    }

    /// Why the download failed; else its last notice, else the error it last retried after, in
    /// the words the details view uses.
    static func noticeLine(_ d: ListRow, now: Date) -> (String, Style) {
        if d.state.isFailed, let reason = d.reason { return (TerminalText.sanitize(reason), Style(color: .red)) }
        if let notice = d.notice { return (TerminalText.sanitize(ReasonText.notice(notice, now: now)), .plain) }
        if let error = d.lastError {
            return ("last error: " + TerminalText.sanitize(ReasonText.failure(error)), Style(color: .yellow))
        }
        return ("none", .dim)
    }
}
