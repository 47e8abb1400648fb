import FoundationEssentials
import HaulCore

/// One download on one line: name, bar, percent, received/total, speed, ETA, state.
/// Paused rows say why; failed rows show the reason where the numbers would be. The marker
/// column shows the selection, or that the row is opened (a click on it opens or closes it).
enum RowView {
    static func draw(
        _ download: ListRow, sample: ProgressSample?, into grid: inout Grid, row: Int,
        columns c: Columns, selected: Bool, opened: Bool = false, glyphs: Glyphs, now: Date
    ) {
        grid.clear(row: row)
        let base = style(for: download.state.kind)
        var x = 0
        // The marker: the selection, or an opened row (its lines are under it).
        let marker = opened ? glyphs.opened : selected ? glyphs.marker : " "
        x = grid.write(marker + " ", row: row, column: x, style: .bold)
        let name = TerminalText.sanitize(download.displayName)
        // A download's own speed limit, at the end of its name where the name has room for it.
        let tag = download.speedLimit.map { " \(glyphs == .unicode ? "≤" : "<=")\(Formatting.rate(Double($0)))" }
        let tagged = tag.map { c.name >= DisplayWidth.of($0) + 12 } ?? false
        let nameWidth = tagged ? c.name - DisplayWidth.of(tag!) : c.name
        x = grid.write(
            DisplayWidth.fit(name, width: nameWidth, ellipsis: glyphs.ellipsis), row: row, column: x,
            style: download.state == .waiting ? .dim : .plain)
        if tagged { x = grid.write(tag!, row: row, column: x, style: Style(color: .cyan)) }
        x += 1

        let stateWidth = c.state
        let numbersWidth = grid.width - x - (stateWidth + 1)
        if download.state.isFailed {
            let reason = TerminalText.sanitize(download.reason ?? "failed")
            // An expired link's row offers a new one; the hint stays whole, the reason gives way.
            let hint = download.mayNeedNewLink ? (glyphs == .unicode ? " · u: new link" : " - u: new link") : ""
            let hintShown = numbersWidth >= DisplayWidth.of(hint) + 12 ? hint : ""
            let start = x
            x = grid.write(
                DisplayWidth.fit(
                    reason, width: max(0, numbersWidth - DisplayWidth.of(hintShown)), pad: false,
                    ellipsis: glyphs.ellipsis), row: row, column: x, style: base)
            if !hintShown.isEmpty { grid.write(hintShown, row: row, column: x, style: Style(color: .yellow)) }
            x = start + max(0, numbersWidth) + 1
        } else {
            let percent = Formatting.percent(received: download.receivedBytes, total: download.totalBytes)
            if c.bar > 0 {
                x = grid.write(
                    bar(
                        percent: download.state == .finished ? 100 : percent, received: download.receivedBytes,
                        total: download.totalBytes, width: c.bar, glyphs: glyphs), row: row, column: x,
                    style: Style(color: download.state == .finished ? .green : .cyan))
                x += 1
            }
            if c.percent > 0 {
                let text = percent.map { "\($0)%" } ?? (download.state == .finished ? "100%" : "--")
                x = grid.write(DisplayWidth.right(text, width: c.percent) + " ", row: row, column: x, style: .plain)
            }
            if c.size > 0 {
                x = grid.write(
                    DisplayWidth.fit(sizeText(download), width: c.size) + " ", row: row, column: x, style: .plain)
            }
            let live = c.speed + (c.speed > 0 ? 1 : 0) + c.eta + (c.eta > 0 ? 1 : 0)
            if live > 0 {
                switch download.state {
                case .downloading where download.isWaitingToRetry(at: now):
                    if case .retrying(_, let at, _, _)? = download.notice {
                        let wait = "retry in " + Formatting.duration(max(0, at.timeIntervalSince(now)))
                        x = grid.write(
                            DisplayWidth.right(wait, width: live - 1) + " ", row: row, column: x,
                            style: Style(color: .yellow))
                    }
                case .downloading where download.isWaitingForNetwork:
                    x = grid.write(
                        DisplayWidth.right("no network", width: live - 1) + " ", row: row, column: x,
                        style: Style(color: .yellow))
                case .downloading:
                    if c.speed > 0 {
                        let speed = sample.map { Formatting.rate($0.bytesPerSecond) } ?? ""
                        x = grid.write(
                            DisplayWidth.right(speed, width: c.speed) + " ", row: row, column: x, style: .plain)
                    }
                    if c.eta > 0 {
                        x = grid.write(
                            DisplayWidth.right(Formatting.duration(sample?.etaSeconds), width: c.eta) + " ", row: row,
                            column: x, style: .plain)
                    }
                case .paused:
                    let why = pausedWhy(download.pauseCause ?? .user)
                    x = grid.write(DisplayWidth.right(why, width: live - 1) + " ", row: row, column: x, style: base)
                case .finished where download.torrent?.seeding == true:
                    // A seeding torrent: what it sends now and its share ratio.
                    let torrent = download.torrent!
                    let rate = Formatting.rate(Double(torrent.uploadRate ?? 0))
                    let ratio = "r" + Formatting.ratio(torrent.ratio(size: download.totalBytes))
                    let arrow = glyphs == .unicode ? "↑" : "up"
                    // Where the columns are narrow the space after the arrow goes before the ratio does.
                    let text =
                        ["\(arrow) \(rate) \(ratio)", "\(arrow)\(rate) \(ratio)"].first {
                            DisplayWidth.of($0) <= live - 1
                        } ?? "\(arrow) \(rate)"
                    x = grid.write(
                        DisplayWidth.right(text, width: live - 1) + " ", row: row, column: x,
                        style: Style(color: .green))
                case .waiting, .finished, .failed:
                    x += live
                }
            }
        }
        if stateWidth > 0 {
            var label = stateLabel(download)
            // A torrent says its swarm: peers while it downloads, seeding after.
            if let torrent = download.torrent {
                if download.state == .downloading {
                    label = download.totalBytes == nil ? "metadata" : "\(torrent.peers ?? 0)p \(torrent.seeds ?? 0)s"
                } else if torrent.seeding {
                    label = "seeding"
                }
            }
            // Before its first byte and its size an HTTP download waits on its server.
            if download.state == .downloading, download.torrent == nil, download.totalBytes == nil,
                (sample?.receivedBytes ?? download.receivedBytes) == 0
            {
                label = "connecting"
            }
            // A download on several connections says how many.
            if download.state == .downloading, download.torrent == nil,
                let count = sample?.connections ?? download.activeConnections, count > 1
            {
                label = "down \(glyphs == .unicode ? "×" : "x")\(count)"
                // …and, fetched from several sources, from how many.
                if let sources = download.sources, sources > 1 {
                    label = "\(glyphs == .unicode ? "×" : "x")\(count) from \(sources)"
                }
            }
            grid.write(
                DisplayWidth.fit(label, width: stateWidth), row: row, column: grid.width - stateWidth,
                style: base)
        }
        if selected { grid.restyle(row: row) { $0.reverse = true } }
    }

    static func stateLabel(_ d: ListRow) -> String {
        switch d.state {
        case .waiting: return "waiting"
        case .downloading: return "downloading"
        case .paused:
            switch d.pauseCause ?? .user {
            case .user: return "paused"
            case .metered: return "metered"
            case .diskFull: return "disk full"
            case .budget: return "budget"
            case .schedule: return "held"
            }
        case .finished: return "done"
        case .failed: return d.failureReason == .cancelled ? "cancelled" : "failed"
        }
    }

    /// Where a paused row's speed and ETA would be: why it is paused.
    static func pausedWhy(_ cause: PauseCause) -> String {
        switch cause {
        case .user: return "by user"
        case .metered: return "metered net"
        case .diskFull: return "disk full"
        case .budget: return "budget used"
        case .schedule: return "by schedule"
        }
    }

    static func style(for state: DownloadState.Kind) -> Style {
        switch state {
        case .waiting: return .dim
        case .downloading: return .plain
        case .paused: return Style(color: .yellow)
        case .finished: return Style(color: .green)
        case .failed: return Style(color: .red)
        }
    }

    static func sizeText(_ d: ListRow) -> String {
        if let total = d.totalBytes {
            return d.state == .finished
                ? Formatting.bytes(total) : "\(Formatting.bytes(d.receivedBytes))/\(Formatting.bytes(total))"
        }
        return d.receivedBytes > 0 ? Formatting.bytes(d.receivedBytes) : ""
    }

    /// `██████▌░░░░` — full cells, one partial cell (Unicode only), empty cells.
    static func bar(percent: Int?, received: Int64, total: Int64?, width: Int, glyphs: Glyphs) -> String {
        guard width > 0 else { return "" }
        var fraction = Double(percent ?? 0) / 100
        if let total, total > 0 { fraction = min(1, Double(received) / Double(total)) }
        if percent == 100 { fraction = 1 }
        let eighths = Int((fraction * Double(width * 8)).rounded(.down))
        let full = eighths / 8
        var text = String(repeating: glyphs.barFull, count: full)
        var used = full
        if used < width, glyphs.barPartial.count == 8, eighths % 8 > 0 {
            text += glyphs.barPartial[eighths % 8]
            used += 1
        }
        return text + String(repeating: glyphs.barEmpty, count: width - used)
    }
}
