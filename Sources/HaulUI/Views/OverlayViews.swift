import FoundationEssentials
import HaulCore

/// A bordered box in the middle of the screen with a title and lines. Lines that do not fit
/// scroll (↑/↓, PgUp/PgDn, the wheel); the bottom border says how many more are above and below.
enum BoxView {
    static let maxWidth = 100

    /// Columns a line of text has inside the box on a screen `screenWidth` wide.
    static func textWidth(screenWidth: Int) -> Int { min(screenWidth - 2, maxWidth) - 4 }

    /// Lines a box shows at once on a screen `screenHeight` tall.
    static func room(screenHeight: Int) -> Int { max(1, screenHeight - 4) }

    /// Draws the box with its lines from `scroll` on (clamped: `Int.max` shows the last ones);
    /// returns the first line shown.
    @discardableResult
    static func draw(title: String, lines: [(String, Style)], scroll: Int = 0, into grid: inout Grid, glyphs: Glyphs)
        -> Int
    {
        let width = min(grid.width - 2, maxWidth)
        let height = min(grid.height - 2, lines.count + 2)
        guard width >= 10, height >= 3 else { return 0 }
        let shown = height - 2
        let first = min(max(0, scroll), max(0, lines.count - shown))
        let left = (grid.width - width) / 2
        let top = max(1, (grid.height - height) / 2)
        let border = Style(color: .cyan)
        let inner = width - 2
        let titleText = DisplayWidth.fit(" \(title) ", width: inner, pad: false)
        grid.write(
            glyphs.box.tl + titleText
                + String(repeating: glyphs.box.h, count: max(0, inner - DisplayWidth.of(titleText))) + glyphs.box.tr,
            row: top, column: left, style: border)
        for i in 0..<shown {
            let row = top + 1 + i
            grid.write(glyphs.box.v, row: row, column: left, style: border)
            grid.write(String(repeating: " ", count: inner), row: row, column: left + 1, style: .plain)
            let (text, style) = lines[first + i]
            grid.write(
                DisplayWidth.fit(text, width: inner - 2, pad: false, ellipsis: glyphs.ellipsis), row: row,
                column: left + 2, style: style)
            grid.write(glyphs.box.v, row: row, column: left + width - 1, style: border)
        }
        let below = lines.count - first - shown
        var more: [String] = []
        if first > 0 { more.append("\(glyphs == .unicode ? "↑" : "^") \(first) more") }
        if below > 0 { more.append("\(glyphs == .unicode ? "↓" : "v") \(below) more") }
        let moreText =
            more.isEmpty ? "" : DisplayWidth.fit(" " + more.joined(separator: " · ") + " ", width: inner, pad: false)
        grid.write(
            glyphs.box.bl + String(repeating: glyphs.box.h, count: inner - DisplayWidth.of(moreText)) + moreText
                + glyphs.box.br, row: top + height - 1, column: left, style: border)
        return first
    }
}

/// `?`: every key of the list and what it does; a long meaning wraps under itself.
enum HelpView {
    static let keyWidth = 14

    static func lines(width: Int) -> [(String, Style)] {
        var lines: [(String, Style)] = []
        for (key, meaning) in KeyMap.help {
            for (i, part) in DisplayWidth.wrap(meaning, width: max(10, width - keyWidth)).enumerated() {
                let lead = i == 0 ? DisplayWidth.fit(key, width: keyWidth) : String(repeating: " ", count: keyWidth)
                lines.append((lead + part, .plain))
            }
        }
        return lines + [("", .plain), ("↑/↓ PgUp/PgDn scroll · Esc closes", .dim)]
    }
}

/// Enter on a download: everything known about it. A long value (a URL, a reason) is wrapped
/// under its label, up to `maxValueLines` lines, rather than cut at the box's edge.
enum DetailsView {
    static let labelWidth = 12
    static let maxValueLines = 4
    /// What only a download over HTTP has: a torrent's swarm, files and pieces take their place.
    static let httpOnly: Set = ["Final URL", "Connections", "ETag", "Modified", "Resumable", "Checksum", "Headers"]

    /// The lines for `d`, each at most `width` columns (the last line of a value cut to fit).
    static func lines(
        for d: Download, sample: ProgressSample?, width: Int, now: Date, glyphs: Glyphs = .unicode,
        history: SpeedHistory? = nil, pieces: [Int64: SpeedHistory] = [:], meteredMode: Bool = true
    ) -> [(String, Style)] {
        func safe(_ s: String?) -> String { s.map { TerminalText.sanitize($0) } ?? "—" }
        let size =
            d.totalBytes.map {
                "\(Formatting.bytes(d.receivedBytes)) of \(Formatting.bytes($0)) (\(d.receivedBytes) of \($0) bytes)"
            }
            ?? "\(Formatting.bytes(d.receivedBytes)) (total unknown)"
        let resumable = d.resumable.map { $0 ? "yes" : "no (the server ignores ranges)" } ?? "unknown yet"
        var fields: [(String, String, Style)] = [
            ("Name", safe(d.displayName), .bold),
            (
                "State", "\(d.state.kind.rawValue)\(d.reason.map { " — \(TerminalText.sanitize($0))" } ?? "")",
                RowView.style(for: d.state.kind)
            ),
            ("ID", d.id.rawValue, .plain),
            ("URL", safe(Redaction.url(d.url)), .plain),
            ("Final URL", safe(d.finalURL.map(Redaction.url)), .plain),
        ]
        // Where it came from before `haul refresh` (or u) gave it its link: the latest first.
        for (i, old) in d.previousURLs.reversed().enumerated() {
            fields.append((i == 0 ? "Came from" : "", safe(Redaction.url(old)), .plain))
        }
        // Each source with what it served, and why one is no longer used.
        if !d.request.sources.isEmpty {
            for (i, source) in d.listedSources.enumerated() {
                let why = source.reason.map { ": " + $0 } ?? ""
                let value = "\(SourceNames.host(source.url))  \(Formatting.bytes(source.bytes))  \(source.state)\(why)"
                fields.append(
                    (
                        i == 0 ? "Sources" : "", TerminalText.sanitize(value),
                        source.state == "usable" ? .plain : Style(color: .red)
                    ))
            }
        }
        if let pieces = d.request.pieceHashes {
            let each = Formatting.bytes(pieces.length)
            fields.append(
                ("Pieces", "\(pieces.hashes.count) of \(each), each checked by \(pieces.algorithm.displayName)", .plain)
            )
        }
        fields += [
            ("Path", safe(d.path ?? d.directory + "/…"), .plain),
            ("Size", size, .plain),
        ]
        if let sample, d.state == .downloading {
            fields.append(
                (
                    "Speed", "\(Formatting.rate(sample.bytesPerSecond)), ETA \(Formatting.duration(sample.etaSeconds))",
                    .plain
                ))
        }
        if let history, !history.points.isEmpty {
            // Its speed over its life, the peak at the top.
            let peak = history.points.max() ?? 0
            let graphWidth = max(10, width - labelWidth - 24)
            fields.append(
                (
                    "History",
                    Sparkline.render(
                        Sparkline.fit(history.points, width: graphWidth),
                        width: min(graphWidth, history.points.count), unicode: glyphs == .unicode)
                        + "  \(Formatting.duration(Double(history.seconds))), peak \(Formatting.rate(peak))", .plain
                ))
        }
        fields += connectionFields(
            d, sample: sample, width: max(10, width - labelWidth), glyphs: glyphs, pieces: pieces)
        fields.append(
            (
                "Limit",
                d.speedLimit.map { "\(Formatting.rate(Double($0))) of its own (l changes it)" }
                    ?? "none of its own (l sets one)", .plain
            ))
        fields += [
            ("ETag", safe(d.etag), .plain),
            ("Modified", safe(d.lastModified), .plain),
            ("Resumable", resumable, .plain),
            ("Retries", "\(d.retries)", .plain),
            ("Last error", safe(d.lastError.map(ReasonText.failure)), d.lastError == nil ? .plain : Style(color: .red)),
            ("Note", safe(d.notice.map { ReasonText.notice($0, now: now) }), .plain),
            ("Checksum", d.checksum.map { "\($0.algorithm.displayName) \($0.hex)" } ?? "—", .plain),
            (
                "Headers",
                d.headers.isEmpty
                    ? "—" : TerminalText.sanitize(d.headers.map(Redaction.header).joined(separator: ", ")), .plain
            ),
            (
                "Metered",
                d.allowMetered
                    ? "allowed on metered networks (M toggles)" : "waits for an unmetered network (M allows)", .plain
            ),
        ]
        var lines: [(String, Style)] = []
        // An engine without metered mode (aria2) has no allowance to show.
        for (label, value, style) in fields
        where (meteredMode || label != "Metered") && !(d.isTorrent && httpOnly.contains(label)) {
            var parts = DisplayWidth.wrap(value, width: max(10, width - labelWidth))
            if parts.count > maxValueLines {
                // The last line keeps the rest, for the box to cut with an ellipsis.
                parts = Array(parts[..<(maxValueLines - 1)]) + [parts[(maxValueLines - 1)...].joined(separator: " ")]
            }
            for (i, part) in parts.enumerated() {
                let lead =
                    i == 0 ? DisplayWidth.fit(label, width: labelWidth) : String(repeating: " ", count: labelWidth)
                lines.append((lead + part, style))
            }
        }
        return lines + [("", .plain), ("Esc or Enter closes", .dim)]
    }
}

extension DetailsView {
    /// For a download fetched over several connections: how many, the map of its file, and
    /// each connection's piece and speed.
    /// `pieces`: each running piece's speed over the last minute, by its start; drawn after it.
    static func connectionFields(
        _ d: Download, sample: ProgressSample?, width: Int, glyphs: Glyphs, pieces: [Int64: SpeedHistory] = [:]
    ) -> [(String, String, Style)] {
        let live = d.state == .downloading ? sample?.segments : nil
        guard let total = d.totalBytes, let segments = live ?? d.segments.map(SegmentMapView.live) else {
            if let count = sample?.connections ?? d.activeConnections, d.state == .downloading {
                return [("Connections", "\(count)", .plain)]
            }
            return []
        }
        let count = d.state == .downloading ? sample?.connections ?? d.activeConnections ?? 0 : 0
        let limit = d.connections.map { " (at most \($0))" } ?? ""
        var fields: [(String, String, Style)] = [
            ("Connections", "\(count)\(limit), \(segments.count) pieces", .plain),
            ("Map", SegmentMapView.bar(segments, total: total, width: width, glyphs: glyphs), Style(color: .cyan)),
        ]
        var number = 0
        for piece in segments {
            guard let rate = piece.bytesPerSecond else { continue }
            number += 1
            let s = piece.segment
            var text =
                "\(Formatting.bytes(s.start))–\(Formatting.bytes(s.end)): "
                + "\(Formatting.bytes(s.received)) done, \(Formatting.rate(rate))"
            if let history = pieces[s.start], width - DisplayWidth.of(text) >= 14 {
                let graph = min(20, width - DisplayWidth.of(text) - 2, history.points.count)
                text += "  " + Sparkline.render(history.points, width: graph, unicode: glyphs == .unicode)
            }
            fields.append((number == 1 ? "Pieces" : "", text, .plain))
        }
        return fields
    }
}

/// The summary a UI shows on attaching: what finished, failed or waits for an unmetered
/// network while no UI was there.
enum AwayView {
    static func lines(_ report: AwayReport, glyphs: Glyphs, height: Int) -> [(String, Style)] {
        let finished = report.count(.finished)
        let failed = report.count(.failed)
        let metered = report.count(.metered)
        var parts: [String] = []
        if finished > 0 { parts.append("\(finished) finished") }
        if failed > 0 { parts.append("\(failed) failed") }
        if metered > 0 { parts.append("\(metered) waiting for an unmetered network") }
        var lines: [(String, Style)] = [(parts.joined(separator: " · "), .bold), ("", .plain)]
        let room = max(1, height - 5)
        let entries = report.entries.reversed() // newest first
        for entry in entries.prefix(room) {
            let name = TerminalText.sanitize(entry.name)
            switch entry.outcome {
            case .finished: lines.append(("finished  \(name)", RowView.style(for: .finished)))
            case .failed:
                lines.append(
                    (
                        "failed    \(name) — \(TerminalText.sanitize(entry.reason ?? "failed"))",
                        RowView.style(for: .failed)
                    ))
            case .metered:
                lines.append(("metered   \(name) (resumes on an unmetered network)", RowView.style(for: .paused)))
            }
        }
        if entries.count > room { lines.append(("\(glyphs.ellipsis) and \(entries.count - room) more", .dim)) }
        lines.append(("", .plain))
        lines.append(("any key closes", .dim))
        return lines
    }
}
