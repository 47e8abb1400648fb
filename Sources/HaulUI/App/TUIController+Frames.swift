import HaulCore

/// Frames: the damaged rows, the status line and the overlays drawn into the grid.
extension TUIController {
    /// Renders what changed into ``grid`` and says which rows to copy to the terminal.
    public func frame(now: Double) -> Damage {
        redraw.lastFrame = FrameReport()
        let damage = render(now: now)
        switch damage {
        case .none: break
        case .full: redraw.lastFrame.rows = grid.height
        case .rows(let rows): redraw.lastFrame.rows = rows.count
        }
        return damage
    }

    func render(now: Double) -> Damage {
        if redraw.list || (list.sort.followsProgress && now - redraw.lastResort >= 1) { rebuildList(now: now) }
        let full = redraw.full
        redraw.full = false
        if full { router.invalidateAll() }
        var rows: [Int] = []
        if now - redraw.lastCountdown >= 1 {
            redraw.lastCountdown = now
            redrawCountdowns()
            expireStatus()
        }
        if now - speeds.lastSample >= 1 {
            speeds.lastSample = now
            sampleSpeeds(at: now)
        }
        if router.takeHeaderDirty() {
            HeaderView.draw(
                model, network: network, speed: speeds.current(model), history: speeds.total.points, into: &grid,
                row: layout.headerRow, glyphs: glyphs)
            rows.append(layout.headerRow)
        }
        for slot in router.takeDirtySlots() {
            drawSlot(slot)
            rows.append(layout.row(forSlot: slot))
        }
        if redraw.status || full {
            redraw.status = false
            drawStatus()
            rows.append(layout.statusRow)
        }
        if full {
            TitleView.draw(columns, into: &grid, row: layout.titleRow)
            FooterView.draw(into: &grid, row: layout.footerRow)
        }
        if mode.isOverlay, full || !rows.isEmpty {
            drawOverlay()
            return .full
        }
        if full { return .full }
        return rows.isEmpty ? .none : .rows(rows)
    }

    /// Once a second: the total speed into the header's graph, each live download's into its life
    /// history. The header redraws only while its graph can change (a minute of nothing is flat).
    func sampleSpeeds(at now: Double) {
        speeds.arrivalRate = speeds.arrivals.record(model.arrivedBytes, at: now) ?? 0
        let total = speeds.current(model)
        let moving = speeds.total.points.contains { $0 > 0 } || total > 0
        speeds.total.record(total)
        if moving || speeds.total.points.count < speeds.total.capacity { router.invalidateHeader() }
        for id in speeds.pieces.keys where model.live[id] == nil { speeds.pieces[id] = nil }
        for (id, sample) in model.live {
            speeds.lives[id, default: SpeedHistory(.life, capacity: 120)].record(sample.bytesPerSecond)
            if let pieces = sample.segments {
                var histories = speeds.pieces[id] ?? [:]
                let running = pieces.filter { $0.bytesPerSecond != nil }
                histories = histories.filter { start, _ in running.contains { $0.segment.start == start } }
                for piece in running {
                    histories[piece.segment.start, default: SpeedHistory(.window, capacity: 60)]
                        .record(piece.bytesPerSecond ?? 0)
                }
                speeds.pieces[id] = histories
            }
            if mode.describedID == id { redraw.full = true }
        }
    }

    /// Rows (and the details box) of downloads waiting to retry show how long is left: they are
    /// redrawn once a second while the wait lasts.
    func redrawCountdowns() {
        let now = wallClock()
        for slot in 0..<router.slots.count {
            guard let id = router.slots.id(at: slot), let d = model[id], d.isWaitingToRetry(at: now) else { continue }
            router.invalidate(slot)
            if mode.describedID == id { redraw.full = true }
        }
    }

    func drawSlot(_ slot: Int) {
        let row = layout.row(forSlot: slot)
        guard row < layout.statusRow else { return }
        guard let id = router.slots.id(at: slot), let d = model[id], slot < list.slotPlaces.count,
            let place = list.slotPlaces[slot]
        else {
            grid.clear(row: row)
            if slot == 0, list.visible.isEmpty {
                let hint =
                    isLoading
                    ? "Loading the downloads…"
                    : model.order.isEmpty
                        ? "No downloads yet — press a to add a URL."
                        : "Nothing matches the filter — press / then Esc to clear it."
                grid.write(hint, row: row, column: 2, style: .dim)
            }
            return
        }
        if place.line > 0 {
            ExpandedRowView.draw(
                line: place.line - 1, of: d, sample: model.sample(for: id), history: speeds.lives[id],
                pieces: speeds.pieces[id] ?? [:], into: &grid, row: row, glyphs: glyphs, now: wallClock())
            return
        }
        RowView.draw(
            d, sample: model.sample(for: id), into: &grid, row: row, columns: columns,
            selected: place.index == list.selectedIndex, opened: list.opened.contains(id), glyphs: glyphs,
            now: wallClock())
    }

    func drawStatus() {
        let row = layout.statusRow
        grid.clear(row: row)
        switch mode {
        case .prompt(let prompt) where prompt.kind == .filter:
            let x = grid.write(label(of: .filter), row: row, column: 0, style: .bold)
            grid.write(
                TerminalText.sanitize(prompt.editor.string) + (glyphs == .unicode ? "▏" : "_")
                    + "   Enter keeps · Esc clears",
                row: row, column: x, style: .plain)
        case .prompt(let prompt):
            self.prompt(label(of: prompt.kind), prompt.editor, row: row)
        case .confirm(let question):
            grid.write(question.text(in: confirmContext), row: row, column: 0, style: Style(color: .yellow, bold: true))
        default:
            if let status = messages.status {
                // The latest message, then the others of the last few seconds.
                var x = grid.write(status.text, row: row, column: 0, style: status.isError ? .error : .plain)
                for older in recentMessages(now: wallClock()) where older.text != status.text && x < grid.width - 8 {
                    x = grid.write("  ·  " + older.text, row: row, column: x, style: .dim)
                }
            } else if let warning = budgetWarning {
                grid.write(warning, row: row, column: 0, style: Style(color: .yellow, bold: true))
            } else {
                var info = "sort: \(list.sort.rawValue)"
                if !list.filterText.isEmpty { info += " · filter: \(TerminalText.sanitize(list.filterText))" }
                info += " · \(list.visible.count) of \(model.order.count) shown"
                grid.write(info, row: row, column: 0, style: .dim)
            }
        }
    }

    private func prompt(_ label: String, _ editor: LineEditor, row: Int) {
        let x = grid.write(label, row: row, column: 0, style: .bold)
        let cursor = glyphs == .unicode ? "▏" : "_"
        grid.write(TerminalText.sanitize(editor.string) + cursor, row: row, column: x, style: .plain)
    }

    /// While metered, once 90 % of the data budget is used: a line that says so.
    var budgetWarning: String? {
        guard network.isMetered, let budget = network.budget, let used = network.budgetLabel,
            network.budgetUsed * 10 >= budget.bytes * 9
        else { return nil }
        return network.budgetUsedUp
            ? "metered data budget used: \(used); allowed downloads wait for the next period"
            : "metered data budget nearly used: \(used)"
    }

    func drawOverlay() {
        switch mode {
        case .details(let id):
            guard model[id] != nil else { return }
            // The whole download comes from the engine; until it has, the box says so.
            let lines =
                list.detailed.map { d in
                    var lines = DetailsView.lines(
                        for: d, sample: model.sample(for: id), width: BoxView.textWidth(screenWidth: grid.width),
                        now: wallClock(), glyphs: glyphs, history: speeds.lives[id], pieces: speeds.pieces[id] ?? [:],
                        meteredMode: network.remote?.engine.isHaul ?? true)
                    // A torrent's swarm, files and pieces go above the closing hint.
                    let torrent = TorrentDetailsView.lines(
                        for: d, details: list.torrentDetails, width: BoxView.textWidth(screenWidth: grid.width),
                        glyphs: glyphs)
                    lines.insert(contentsOf: torrent.dropFirst(), at: max(0, lines.count - 2))
                    return lines
                } ?? [("Reading the download's details" + glyphs.ellipsis, Style.dim)]
            list.boxScroll = BoxView.draw(
                title: "Details", lines: lines, scroll: list.boxScroll, into: &grid, glyphs: glyphs)
        case .files(let picker):
            let height = min(grid.height - 2, BoxView.room(screenHeight: grid.height) + 2)
            let lines = picker.lines(
                files: list.torrentDetails?.files ?? [], height: height - 2,
                width: BoxView.textWidth(screenWidth: grid.width), glyphs: glyphs)
            let name = list.detailed.map { TerminalText.sanitize($0.displayName) } ?? ""
            BoxView.draw(title: "Files of \(name)", lines: lines, into: &grid, glyphs: glyphs)
        case .log:
            list.boxScroll = BoxView.draw(
                title: "Log", lines: logLines(), scroll: list.boxScroll, into: &grid, glyphs: glyphs)
        case .help:
            list.boxScroll = BoxView.draw(
                title: "Keys", lines: HelpView.lines(width: BoxView.textWidth(screenWidth: grid.width)),
                scroll: list.boxScroll, into: &grid, glyphs: glyphs)
        case .add(let dialog):
            dialog.draw(into: &grid, glyphs: glyphs)
        case .away(let report):
            BoxView.draw(
                title: "While you were away", lines: AwayView.lines(report, glyphs: glyphs, height: grid.height - 4),
                into: &grid, glyphs: glyphs)
        default:
            break
        }
    }

    /// A key that scrolls a box (details, help, the log): the new first line, or nil for other keys.
    func scrolledBox(by key: Key) -> Int? {
        let page = max(1, BoxView.room(screenHeight: grid.height) - 1)
        // Int.max (the log's "newest") is clamped at the next frame; no sum may overflow before.
        let boxScroll = min(list.boxScroll, 1 << 30)
        switch key {
        case .up, .character("k"): return max(0, boxScroll - 1)
        case .down, .character("j"): return boxScroll + 1
        case .pageUp, .control("b"): return max(0, boxScroll - page)
        case .pageDown, .control("f"), .character(" "): return boxScroll + page
        case .home, .character("g"): return 0
        case .end, .character("G"): return Int.max
        default: return nil
        }
    }
}
