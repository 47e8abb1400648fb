import Foundation
import HaulCore

/// The whole TUI as pure logic: it takes engine events and keys, keeps the screen model,
/// binds row slots through the ``EventRouter``, and renders frames into a ``Grid``.
/// The terminal backend only copies the damaged rows and feeds keys in.
public final class TUIController {
    public private(set) var model: DownloadListModel
    public private(set) var router: EventRouter
    public private(set) var grid: Grid
    public private(set) var layout: ScreenLayout
    public private(set) var columns: Columns
    public private(set) var mode: Mode = .list
    public private(set) var visible: [DownloadID] = []
    public private(set) var sort: SortOrder = .added
    public private(set) var filterText = ""
    public private(set) var selectedIndex = 0
    public private(set) var scroll = 0
    /// The line shown on the status row until the next key.
    public private(set) var status: (text: String, isError: Bool)?
    /// The metered-network mode and verdict, as the engine last reported them.
    public private(set) var network: NetworkStatus

    let glyphs: Glyphs
    /// Whether quitting with downloads running offers to keep them going in the background.
    let asksToKeepRunning: Bool
    let defaultDirectory: String
    let home: String
    private var selectedID: DownloadID?
    private var listDirty = true
    private var lastResort = -Double.infinity
    private var fullRedraw = true
    private var statusDirty = true
    private var filterCache: (needle: String, version: Int, positions: [Int32])?
    private var nameRankCache: (version: Int, ranks: [Int32])?
    /// What the last ``frame(now:)`` did (the benchmark reports it for its slowest frame).
    public private(set) var lastFrameWork = FrameWork()

    public init(
        downloads: [Download], width: Int, height: Int, defaultDirectory: String, home: String, unicode: Bool = true,
        network: NetworkStatus = NetworkStatus(mode: .off), asksToKeepRunning: Bool = true
    ) {
        self.network = network
        self.asksToKeepRunning = asksToKeepRunning
        model = DownloadListModel(downloads)
        layout = ScreenLayout(width: width, height: height)
        columns = Columns.forWidth(layout.width)
        router = EventRouter(slotCount: layout.slotCount)
        grid = Grid(width: layout.width, height: layout.height)
        glyphs = unicode ? .unicode : .ascii
        self.defaultDirectory = defaultDirectory
        self.home = home
    }

    // MARK: Input from the engine

    public func apply(_ event: EngineEvent) {
        let changed = model.apply(event)
        router.route(event)
        switch event {
        case .added, .removed, .removedMany:
            listDirty = true
        case .updated where changed && (sort == .state || sort == .name || !filterText.isEmpty):
            listDirty = true
        default:
            break
        }
        if case .details(let id) = mode, id == event.downloadID { fullRedraw = true }
        if case .details(let id) = mode, case .removedMany(let ids) = event, ids.contains(id) { fullRedraw = true }
        if case .network(let status) = event { network = status }
    }

    /// True until ``load(_:network:)`` gives the downloads (the screen is up before the state is read).
    public private(set) var isLoading = false

    /// Starts with an empty, loading list.
    public func beginLoading() {
        isLoading = true
        fullRedraw = true
    }

    /// The downloads arrived: the list shows them.
    public func load(_ downloads: [Download], network: NetworkStatus) {
        model = DownloadListModel(downloads)
        self.network = network
        isLoading = false
        filterCache = nil
        nameRankCache = nil
        listDirty = true
        fullRedraw = true
    }

    /// Shows a message on the status line (results and errors of commands).
    public func report(_ text: String, isError: Bool = false) {
        status = (TerminalText.sanitize(text), isError)
        statusDirty = true
    }

    public func resize(width: Int, height: Int) {
        layout = ScreenLayout(width: width, height: height)
        columns = Columns.forWidth(layout.width)
        grid = Grid(width: layout.width, height: layout.height)
        router.resize(slotCount: layout.slotCount)
        listDirty = true
        fullRedraw = true
    }

    // MARK: Keys

    public func handle(_ key: Key) -> [Effect] {
        if key == .resize { return [] }
        if status != nil, mode == .list {
            status = nil
            statusDirty = true
        }
        switch mode {
        case .list: return handleList(key)
        case .filter(var editor): return handleFilter(key, &editor)
        case .meteredLimit(var editor): return handleMeteredLimit(key, &editor)
        case .add(var form): return handleAdd(key, &form)
        case .confirm(let question): return handleConfirm(key, question)
        case .away:
            setMode(.list)
            return []
        case .details, .help:
            if key == .escape || key == .enter || key == .character("q") || key == .character("?") { setMode(.list) }
            return []
        }
    }

    private func handleList(_ key: Key) -> [Effect] {
        // Keys typed before the first frame act on the list as it will be shown.
        if listDirty { rebuildList(now: lastResort) }
        if key == .escape, !filterText.isEmpty {
            filterText = ""
            listDirty = true
            report("filter cleared")
            return []
        }
        // Ctrl-C leaves at once, like a signal: nothing is asked, everything is saved.
        if key == .control("c") { return [.quit(.leave)] }
        guard let action = KeyMap.action(for: key) else { return [] }
        let page = max(1, layout.slotCount - 1)
        switch action {
        case .moveUp: select(selectedIndex - 1)
        case .moveDown: select(selectedIndex + 1)
        case .pageUp: select(selectedIndex - page)
        case .pageDown: select(selectedIndex + page)
        case .top: select(0)
        case .bottom: select(visible.count - 1)
        case .quit:
            let running = model.order.compactMap { model[$0] }.filter(Self.keepsGoing).count
            if running == 0 || !asksToKeepRunning { return [.quit(.leave)] }
            setMode(.confirm(.quitWhileRunning(count: running)))
        case .help: setMode(.help)
        case .add: setMode(.add(AddForm(directory: defaultDirectory)))
        case .filter: setMode(.filter(LineEditor(filterText)))
        case .cycleSort:
            sort = sort.next
            listDirty = true
            report("sorted by \(sort.rawValue)")
        case .cycleMetered:
            let next = network.mode.next
            report("metered network: \(next.rawValue)")
            return [.send(.setMeteredMode(next))]
        case .setMeteredLimit:
            setMode(.meteredLimit(LineEditor(network.limit.map { Formatting.bytes($0).replacingOccurrences(of: " ", with: "") } ?? "")))
        case .togglePauseAll:
            let anyActive = model.count(.waiting) + model.count(.downloading) > 0
            report(anyActive ? "pausing all" : "resuming all")
            return [.send(anyActive ? .pause(.all) : .resume(.all))]
        case .details, .togglePause, .cancel, .remove, .retry, .toggleAllowMetered:
            guard let d = selectedDownload else {
                report("nothing selected — press a to add a download")
                return []
            }
            return act(action, on: d)
        }
        return []
    }

    private func act(_ action: ListAction, on d: Download) -> [Effect] {
        let name = TerminalText.sanitize(d.displayName)
        switch action {
        case .details:
            setMode(.details(d.id))
        case .togglePause:
            switch d.state {
            case .waiting, .downloading: return [.send(.pause(.ids([d.id])))]
            case .paused:
                if network.isMetered && !d.allowMetered {
                    setMode(.confirm(.allowAndResume(d.id)))
                    return []
                }
                return [.send(.resume(.ids([d.id])))]
            case .failed: report("\(name) failed — press r to retry")
            case .finished: report("\(name) is already finished")
            }
        case .cancel:
            if d.state == .finished { report("\(name) is finished; d removes it from the list") } else { setMode(.confirm(.cancel(d.id))) }
        case .remove:
            setMode(.confirm(.remove(d.id)))
        case .retry:
            if d.state == .failed || d.state == .paused { return [.send(.retry(.ids([d.id])))] }
            report("only failed downloads can be retried")
        case .toggleAllowMetered:
            report(d.allowMetered ? "\(name) may no longer use a metered network" : "\(name) may use a metered network")
            return [.send(.allowMetered(.ids([d.id]), !d.allowMetered))]
        default:
            break
        }
        return []
    }

    private func handleFilter(_ key: Key, _ editor: inout LineEditor) -> [Effect] {
        switch key {
        case .enter:
            setMode(.list)
        case .escape:
            filterText = ""
            listDirty = true
            setMode(.list)
        default:
            guard editor.handle(key) else { return [] }
            mode = .filter(editor)
            filterText = editor.string
            listDirty = true
            statusDirty = true
        }
        return []
    }

    private func handleMeteredLimit(_ key: Key, _ editor: inout LineEditor) -> [Effect] {
        switch key {
        case .escape:
            setMode(.list)
        case .enter:
            setMode(.list)
            let text = editor.string.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text == "0" || text.lowercased() == "none" {
                report("no speed cap on metered networks")
                return [.send(.setMeteredLimit(nil))]
            }
            guard let limit = Formatting.parseSize(text.replacingOccurrences(of: "iB", with: "").replacingOccurrences(of: "/s", with: "")), limit > 0 else {
                report("'\(TerminalText.sanitize(text))' is not a speed; try 500K or 2M", isError: true)
                return []
            }
            report("metered speed cap: \(Formatting.rate(Double(limit)))")
            return [.send(.setMeteredLimit(limit))]
        default:
            guard editor.handle(key) else { return [] }
            mode = .meteredLimit(editor)
            statusDirty = true
        }
        return []
    }

    private func handleAdd(_ key: Key, _ form: inout AddForm) -> [Effect] {
        switch key {
        case .escape:
            setMode(.list)
            return []
        case .tab, .down:
            form.focus = (form.focus + 1) % form.fields.count
        case .backTab, .up:
            form.focus = (form.focus + form.fields.count - 1) % form.fields.count
        case .enter:
            return submit(form)
        default:
            guard form.fields[form.focus].handle(key) else { return [] }
        }
        mode = .add(form)
        fullRedraw = true
        return []
    }

    private func submit(_ form: AddForm) -> [Effect] {
        let url: String
        do {
            url = try DownloadURL.validate(form.fields[0].string)
        } catch {
            report(error.message, isError: true)
            return []
        }
        var directory = form.fields[1].string.trimmingCharacters(in: .whitespaces)
        if directory.isEmpty { directory = defaultDirectory }
        if directory == "~" { directory = home } else if directory.hasPrefix("~/") { directory = home + directory.dropFirst(1) }
        guard directory.hasPrefix("/") else {
            report("the directory must be an absolute path (or start with ~/)", isError: true)
            return []
        }
        let name = form.fields[2].string.trimmingCharacters(in: .whitespaces)
        setMode(.list)
        report("adding \(url)")
        return [.send(.add([AddRequest(url: url, directory: directory, fileName: name.isEmpty ? nil : name)]))]
    }

    private func handleConfirm(_ key: Key, _ question: Confirmation) -> [Effect] {
        let yes = key == .character("y") || key == .character("Y")
        if case .quitWhileRunning = question {
            if yes { return [.quit(.background)] }
            if key == .character("n") || key == .character("N") { return [.quit(.pause)] }
            setMode(.list)
            report("still here")
            return []
        }
        setMode(.list)
        guard yes else {
            if case .deleteFile(let id) = question {
                report("removed from the list; the file was kept")
                return [.send(.remove(.ids([id]), deleteFiles: false))]
            }
            report("nothing changed")
            return []
        }
        switch question {
        case .cancel(let id):
            return [.send(.cancel(.ids([id])))]
        case .remove(let id):
            if model[id]?.state == .finished, model[id]?.path != nil {
                setMode(.confirm(.deleteFile(id)))
                return []
            }
            return [.send(.remove(.ids([id]), deleteFiles: false))]
        case .deleteFile(let id):
            return [.send(.remove(.ids([id]), deleteFiles: true))]
        case .allowAndResume(let id):
            return [.send(.allowMetered(.ids([id]), true)), .send(.resume(.ids([id])))]
        case .quitWhileRunning:
            return []
        }
    }

    /// Downloads that go on without the user: running, queued, or held by a policy that lifts by itself.
    public static func keepsGoing(_ d: Download) -> Bool {
        switch d.state {
        case .waiting, .downloading: return true
        case .paused: return d.pauseCause == .metered || d.pauseCause == .diskFull
        case .finished, .failed: return false
        }
    }

    /// Shows what happened while no UI was attached; any key closes it.
    public func showAway(_ report: AwayReport) {
        guard !report.isEmpty else { return }
        setMode(.away(report))
    }

    private func setMode(_ new: Mode) {
        let wasOverlay = mode.isOverlay
        mode = new
        statusDirty = true
        if wasOverlay || new.isOverlay { fullRedraw = true }
        if case .confirm = new { status = nil }
    }

    // MARK: Selection

    public var selectedDownload: Download? {
        guard selectedIndex >= 0, selectedIndex < visible.count else { return nil }
        return model[visible[selectedIndex]]
    }

    private func select(_ index: Int) {
        guard !visible.isEmpty else { return }
        let oldSlot = selectedIndex - scroll
        selectedIndex = min(max(0, index), visible.count - 1)
        selectedID = visible[selectedIndex]
        if scrollToSelection() {
            bindSlots()
        } else {
            router.invalidate(oldSlot)
            router.invalidate(selectedIndex - scroll)
        }
    }

    /// Moves the window so the selection is visible; returns whether it moved.
    private func scrollToSelection() -> Bool {
        let slots = layout.slotCount
        let old = scroll
        if selectedIndex < scroll { scroll = selectedIndex }
        if selectedIndex >= scroll + slots { scroll = selectedIndex - slots + 1 }
        scroll = max(0, min(scroll, max(0, visible.count - slots)))
        return scroll != old
    }

    /// Binds every slot to the download now shown in it; changed bindings redraw.
    private func bindSlots() {
        for slot in 0..<layout.slotCount {
            let index = scroll + slot
            router.bind(slot, to: index < visible.count ? visible[index] : nil)
        }
    }

    private func rebuildList(now: Double) {
        listDirty = false
        lastResort = now
        let oldSelectedSlot = selectedIndex - scroll
        let order = model.order
        visible = ListOrdering.sortedPositions(filteredPositions(), by: sort, in: model, nameRanks: sort == .name ? nameRanks() : nil)
            .map { order[Int($0)] }
        lastFrameWork.listed = visible.count
        if let id = selectedID, let index = visible.firstIndex(of: id) {
            selectedIndex = index
        } else {
            selectedIndex = min(selectedIndex, max(0, visible.count - 1))
        }
        selectedID = visible.isEmpty ? nil : visible[selectedIndex]
        _ = scrollToSelection()
        bindSlots()
        router.invalidate(oldSelectedSlot)
        router.invalidate(selectedIndex - scroll)
        statusDirty = true
    }

    /// The list positions the filter keeps. Typing extends the filter, so the last result is
    /// narrowed further instead of searching every download again.
    private func filteredPositions() -> [Int32] {
        let needle = filterText.lowercased()
        guard !needle.isEmpty else { return Array(0..<Int32(model.order.count)) }
        if let cache = filterCache, cache.needle == needle, cache.version == model.structureVersion { return cache.positions }
        var base: [Int32]?
        if let cache = filterCache, cache.version == model.structureVersion, needle.contains(cache.needle) { base = cache.positions }
        let positions = ListOrdering.filteredPositions(base, by: needle, in: model)
        lastFrameWork.searched = base?.count ?? model.order.count
        filterCache = (needle, model.structureVersion, positions)
        return positions
    }

    /// Name order, computed once per change of names rather than at every sort.
    private func nameRanks() -> [Int32] {
        if let cache = nameRankCache, cache.version == model.namesVersion { return cache.ranks }
        let ranks = ListOrdering.nameRanks(model.searchKeyList)
        lastFrameWork.rankedNames = true
        nameRankCache = (model.namesVersion, ranks)
        return ranks
    }

    /// What a worker needs to compute the name order ahead of time, if it is not known yet.
    public var nameRankRequest: (version: Int, searchKeyList: [String])? {
        if let cache = nameRankCache, cache.version == model.namesVersion { return nil }
        return (model.namesVersion, model.searchKeyList)
    }

    /// Name ranks computed elsewhere; ignored when the names changed meanwhile.
    public func adoptNameRanks(_ ranks: [Int32], version: Int) {
        guard version == model.namesVersion else { return }
        nameRankCache = (version, ranks)
    }

    // MARK: Frames

    /// Renders what changed into ``grid`` and says which rows to copy to the terminal.
    public func frame(now: Double) -> Damage {
        lastFrameWork = FrameWork()
        let damage = render(now: now)
        switch damage {
        case .none: break
        case .full: lastFrameWork.rows = grid.height
        case .rows(let rows): lastFrameWork.rows = rows.count
        }
        return damage
    }

    private func render(now: Double) -> Damage {
        if listDirty || (sort.followsProgress && now - lastResort >= 1) { rebuildList(now: now) }
        let full = fullRedraw
        fullRedraw = false
        if full { router.invalidateAll() }
        var rows: [Int] = []
        if router.takeHeaderDirty() {
            HeaderView.draw(model, metered: network.label, into: &grid, row: layout.headerRow, glyphs: glyphs)
            rows.append(layout.headerRow)
        }
        for slot in router.takeDirtySlots() {
            drawSlot(slot)
            rows.append(layout.row(forSlot: slot))
        }
        if statusDirty || full {
            statusDirty = false
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

    private func drawSlot(_ slot: Int) {
        let row = layout.row(forSlot: slot)
        guard row < layout.statusRow else { return }
        guard let id = router.slots.id(at: slot), let d = model[id] else {
            grid.clear(row: row)
            if slot == 0, visible.isEmpty {
                let hint = isLoading ? "Loading the downloads…" : model.order.isEmpty ? "No downloads yet — press a to add a URL." : "Nothing matches the filter — press / then Esc to clear it."
                grid.write(hint, row: row, column: 2, style: .dim)
            }
            return
        }
        RowView.draw(d, sample: model.sample(for: id), into: &grid, row: row, columns: columns, selected: scroll + slot == selectedIndex, glyphs: glyphs)
    }

    private func drawStatus() {
        let row = layout.statusRow
        grid.clear(row: row)
        switch mode {
        case .filter(let editor):
            let x = grid.write("filter: ", row: row, column: 0, style: .bold)
            grid.write(TerminalText.sanitize(editor.string) + (glyphs == .unicode ? "▏" : "_") + "   Enter keeps · Esc clears", row: row, column: x, style: .plain)
        case .meteredLimit(let editor):
            let x = grid.write("metered speed cap (e.g. 500K; empty = none): ", row: row, column: 0, style: .bold)
            grid.write(TerminalText.sanitize(editor.string) + (glyphs == .unicode ? "▏" : "_"), row: row, column: x, style: .plain)
        case .confirm(let question):
            grid.write(questionText(question), row: row, column: 0, style: Style(color: .yellow, bold: true))
        default:
            if let status {
                grid.write(status.text, row: row, column: 0, style: status.isError ? .error : .plain)
            } else {
                var info = "sort: \(sort.rawValue)"
                if !filterText.isEmpty { info += " · filter: \(TerminalText.sanitize(filterText))" }
                info += " · \(visible.count) of \(model.order.count) shown"
                grid.write(info, row: row, column: 0, style: .dim)
            }
        }
    }

    private func questionText(_ question: Confirmation) -> String {
        func name(_ id: DownloadID) -> String { model[id].map { TerminalText.sanitize($0.displayName) } ?? id.rawValue }
        switch question {
        case .cancel(let id): return "Cancel \(name(id)) and delete its partial data? [y/N]"
        case .remove(let id): return "Remove \(name(id)) from the list? [y/N]"
        case .deleteFile(let id):
            return "Also delete the file \(model[id]?.path.map { TerminalText.sanitize($0) } ?? "")? [y/N] (N keeps it)"
        case .allowAndResume(let id):
            return "The network is metered. Allow \(name(id)) on metered networks and resume it? [y/N]"
        case .quitWhileRunning(let count):
            let what = count == 1 ? "1 download is" : "\(count) downloads are"
            return "\(what) running. Keep downloading in the background? [y]es · [n]o, pause · Esc stays"
        }
    }

    private func drawOverlay() {
        switch mode {
        case .details(let id):
            guard let d = model[id] else { return }
            BoxView.draw(title: "Details", lines: DetailsView.lines(for: d, sample: model.sample(for: id), width: BoxView.textWidth(screenWidth: grid.width)), into: &grid, glyphs: glyphs)
        case .help:
            let lines = KeyMap.help.map { (DisplayWidth.fit($0.0, width: 14) + $0.1, Style.plain) } + [("", .plain), ("Esc closes", .dim)]
            BoxView.draw(title: "Keys", lines: lines, into: &grid, glyphs: glyphs)
        case .add(let form):
            BoxView.draw(title: "Add a download", lines: form.lines(width: min(grid.width - 2, BoxView.maxWidth), glyphs: glyphs), into: &grid, glyphs: glyphs)
        case .away(let report):
            BoxView.draw(title: "While you were away", lines: AwayView.lines(report, glyphs: glyphs, height: grid.height - 4), into: &grid, glyphs: glyphs)
        default:
            break
        }
    }
}
