import HaulCore

/// The part of the details box only a torrent has: its swarm (ratio, peers with their client and
/// speeds, trackers with their last answer), its files with their selection, and its pieces. A
/// peer's client and a file's path come from the swarm: every one is made safe before it is drawn.
enum TorrentDetailsView {
    /// The most peers and files listed; the rest are counted.
    static let listed = 50

    static func lines(for d: Download, details: TorrentDetails?, width: Int, glyphs: Glyphs = .unicode) -> [(
        String, Style
    )] {
        guard let torrent = d.torrent else { return [] }
        let label = DetailsView.labelWidth
        func line(_ key: String, _ value: String, _ style: Style = .plain) -> (String, Style) {
            (DisplayWidth.fit(DisplayWidth.fit(key, width: label) + value, width: width), style)
        }
        var lines: [(String, Style)] = [("", .plain)]
        lines.append(line("Info hash", torrent.infoHash))
        let ratio = Formatting.ratio(torrent.ratio(size: d.totalBytes))
        let arrow = glyphs == .unicode ? "↑" : "up"
        let up = torrent.uploadRate.map { ", \(arrow) \(Formatting.rate(Double($0)))" } ?? ""
        lines.append(line("Uploaded", "\(Formatting.bytes(torrent.uploaded)), ratio \(ratio)\(up)"))
        if torrent.seeding {
            let end = seedingEnd(
                own: d.request.seedGoal, goal: details?.seedingGoal, untilPaused: torrent.seedsUntilPaused)
            lines.append(line("Seeding", end, Style(color: .green)))
        }
        guard let details else {
            if d.state == .downloading || torrent.seeding {
                lines.append(line("Swarm", "asking" + glyphs.ellipsis, .dim))
            }
            return lines
        }
        let seeds = details.peers.count { $0.isSeed }
        let limit = d.connections.map { "; at most \($0)" } ?? ""
        lines.append(line("Peers", "\(details.peers.count) connected, \(seeds) of them seeds\(limit)"))
        for peer in details.peers.prefix(listed) {
            let speeds =
                "\(glyphs == .unicode ? "↓" : "dn") \(Formatting.rate(Double(peer.downloadRate)))  "
                + "\(glyphs == .unicode ? "↑" : "up") \(Formatting.rate(Double(peer.uploadRate)))"
            let has = Int((peer.progress * 100).rounded())
            let client = TerminalText.sanitize(peer.client).prefix(20)
            lines.append(line("", "\(TerminalText.sanitize(peer.address))  \(client)  \(speeds)  \(has)%"))
        }
        if details.peers.count > listed { lines.append(line("", "and \(details.peers.count - listed) more", .dim)) }
        for (i, tracker) in details.trackers.enumerated() {
            let answer =
                tracker.lastAnswer.map { TerminalText.sanitize($0) } ?? (tracker.working ? "working" : "not asked yet")
            lines.append(
                line(
                    i == 0 ? "Trackers" : "", "\(TerminalText.sanitize(tracker.url))  \(answer)",
                    tracker.working ? .plain : Style(color: .yellow)))
        }
        for (i, file) in details.files.prefix(listed).enumerated() {
            lines.append(
                line(
                    i == 0 ? "Files" : "",
                    "\(fileName(file, index: i, selected: file.selected, glyphs: glyphs))  \(fileSize(file))",
                    file.selected ? .plain : .dim))
        }
        if details.files.count > listed {
            lines.append(line("", "and \(details.files.count - listed) more files", .dim))
        }
        if !details.files.isEmpty { lines.append(line("", "f opens the files: Space fetches or skips one", .dim)) }
        if details.pieceCount > 0 {
            lines.append(line("Pieces", pieceMap(details, width: max(10, width - label), glyphs: glyphs)))
        }
        return lines
    }

    /// When seeding ends: at the `goal` the engine says holds, else at the torrent's `own` (until
    /// the engine says), with its own parts marked; or when paused, for a torrent resumed by hand.
    static func seedingEnd(own: SeedGoal?, goal: SeedGoal?, untilPaused: Bool) -> String {
        if untilPaused { return "until paused (resumed by hand, past its seed goal)" }
        guard let goal = goal ?? own, !goal.isEmpty else { return "until the seed ratio or time is reached" }
        var parts: [String] = []
        if let ratio = goal.ratio {
            parts.append("ratio \(Formatting.ratio(ratio))" + (own?.ratio != nil ? " (its own)" : ""))
        }
        if let minutes = goal.minutes {
            parts.append("\(minutes) min" + (own?.minutes != nil ? " (its own)" : ""))
        }
        return "until " + parts.joined(separator: " or ")
    }

    /// A file as the details and the files box list it: its mark, number (from 1) and safe path.
    static func fileName(_ file: TorrentDetails.File, index: Int, selected: Bool, glyphs: Glyphs) -> String {
        let mark = selected ? (glyphs == .unicode ? "☑" : "[x]") : (glyphs == .unicode ? "☐" : "[ ]")
        return "\(mark) \(index + 1). \(TerminalText.sanitize(file.path))"
    }

    /// A file's size and how much of it is on disk.
    static func fileSize(_ file: TorrentDetails.File) -> String {
        "\(Formatting.bytes(file.size))  \(file.size > 0 ? Int(file.done * 100 / file.size) : 100)%"
    }

    /// One cell per group of pieces: full when the group is all there, half when part of it is.
    static func pieceMap(_ details: TorrentDetails, width: Int, glyphs: Glyphs) -> String {
        let count = details.pieceCount
        let cells = min(width, count)
        guard cells > 0 else { return "" }
        func has(_ i: Int) -> Bool {
            let byte = i / 8
            guard byte < details.pieces.count else { return false }
            return details.pieces[byte] & UInt8(0x80 >> (i % 8)) != 0
        }
        var map = ""
        for cell in 0..<cells {
            let from = cell * count / cells
            let to = max(from + 1, (cell + 1) * count / cells)
            let have = (from..<to).count(where: has)
            map +=
                have == to - from
                ? (glyphs == .unicode ? "█" : "#")
                : have > 0 ? (glyphs == .unicode ? "▒" : "+") : (glyphs == .unicode ? "·" : ".")
        }
        return map
    }
}
