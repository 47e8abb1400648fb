import HaulCore

/// Keys: what each does in each mode, and the effects the backend carries out.
extension TUIController {
    public func handle(_ key: Key) -> [Effect] {
        if key == .resize { return [] }
        if case .mouse(let event) = key {
            if redraw.list { rebuildList(now: redraw.lastResort) }
            return handleMouse(event)
        }
        switch mode {
        case .list: return handleList(key)
        case .prompt(var prompt): return handlePrompt(key, &prompt)
        case .add(var dialog): return handleAdd(key, &dialog)
        case .confirm(let question): return handleConfirm(key, question)
        case .away:
            setMode(.list)
            return []
        case .details(let id) where key == .character("f") && torrentInDetails != nil:
            setMode(.files(FilesPicker(id: id, selection: list.detailed?.request.selectedFiles)))
            return []
        case .files(var picker):
            return handleFiles(key, &picker)
        case .details, .help, .log:
            if key == .escape || key == .enter || key == .character("q") || key == .character("?") {
                setMode(.list)
            } else if let scroll = scrolledBox(by: key), scroll != list.boxScroll {
                list.boxScroll = scroll
                redraw.full = true
            }
            return []
        }
    }

    func handleList(_ key: Key) -> [Effect] {
        // Keys typed before the first frame act on the list as it will be shown.
        if redraw.list { rebuildList(now: redraw.lastResort) }
        if key == .escape, !list.filterText.isEmpty {
            list.filterText = ""
            redraw.list = true
            report("filter cleared")
            return []
        }
        // Ctrl-C leaves at once, like a signal: nothing is asked, everything is saved.
        if key == .control("c") { return [.quit(.leave)] }
        guard let action = KeyMap.action(for: key) else { return [] }
        let page = max(1, layout.slotCount - 1)
        switch action {
        case .moveUp: select(list.selectedIndex - 1)
        case .moveDown: select(list.selectedIndex + 1)
        case .pageUp: select(list.selectedIndex - page)
        case .pageDown: select(list.selectedIndex + page)
        case .top: select(0)
        case .bottom: select(list.visible.count - 1)
        case .quit:
            let running = model.order.compactMap { model[$0] }.filter(Self.keepsGoing).count
            if running == 0 || !surroundings.asksToKeepRunning { return [.quit(.leave)] }
            setMode(.confirm(.quitWhileRunning(count: running)))
        case .help: setMode(.help)
        case .add:
            // On another machine's engine the folder is that machine's: empty is the engine's own.
            setMode(.add(AddDialog(in: addContext)))
        case .filter: setMode(.prompt(Prompt(.filter, LineEditor(list.filterText))))
        case .cycleSort:
            list.sort = list.sort.next
            redraw.list = true
            report("sorted by \(list.sort.rawValue)")
        case .cycleMetered:
            if let refusal = network.remote?.unsupported("metered mode") {
                report(refusal, isError: true)
                return []
            }
            let next = network.mode.next
            report("metered network: \(next.rawValue)")
            return [.send(.setMeteredMode(next))]
        case .setMeteredLimit:
            if let refusal = network.remote?.unsupported("a metered cap") {
                report(refusal, isError: true)
                return []
            }
            setMode(.prompt(Prompt(.meteredLimit, LineEditor(network.limit.map(Self.editable) ?? ""))))
        case .setSpeedLimit: beginSpeedLimit()
        case .commandLine: beginCommandLine()
        case .showLog: setMode(.log)
        case .togglePauseAll:
            let anyActive = model.count(.waiting) + model.count(.downloading) > 0
            report(anyActive ? "pausing all" : "resuming all")
            return [.send(anyActive ? .pause(.all) : .resume(.all))]
        case .details, .togglePause, .cancel, .remove, .retry, .toggleAllowMetered, .moreConnections,
            .fewerConnections, .setDownloadLimit, .moveInQueue, .newLink, .openFile, .openFolder, .toggleRow, .openRow,
            .closeRow:
            guard let d = selectedDownload else {
                report("nothing selected — press a to add a download")
                return []
            }
            return act(action, on: d)
        }
        return []
    }

    func act(_ action: ListAction, on d: ListRow) -> [Effect] {
        let name = TerminalText.sanitize(d.displayName)
        switch action {
        case .details:
            list.detailed = nil
            list.torrentDetails = nil
            setMode(.details(d.id))
            return [.describe(d.id)]
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
            // A finished torrent: the key stops its seeding for good, or starts it again until paused.
            case .finished where d.torrent?.seeding == true:
                return [.sendThenSay(.pause(.ids([d.id])), done: "\(name) seeds no more; space seeds it again")]
            case .finished where d.torrent != nil && network.remote == nil:
                let done =
                    network.isMetered
                    ? "\(name) seeds again once the network is unmetered, until paused"
                    : "\(name) seeds again until paused"
                return [.sendThenSay(.resume(.ids([d.id])), done: done)]
            case .finished: report("\(name) is already finished")
            }
        case .cancel:
            if d.state == .finished {
                report("\(name) is finished; d removes it from the list")
            } else {
                setMode(.confirm(.cancel(d.id)))
            }
        case .remove:
            setMode(.confirm(.remove(d.id)))
        case .retry:
            if d.state.isFailed || d.state.isPaused { return [.send(.retry(.ids([d.id])))] }
            report("only failed downloads can be retried")
        case .toggleAllowMetered:
            if let refusal = network.remote?.unsupported("allowing a download on a metered network") {
                report(refusal, isError: true)
                return []
            }
            report(d.allowMetered ? "\(name) may no longer use a metered network" : "\(name) may use a metered network")
            return [.send(.allowMetered(.ids([d.id]), !d.allowMetered))]
        case .moreConnections, .fewerConnections:
            if d.torrent != nil { return changePeerLimit(d, more: action == .moreConnections) }
            let current = d.connections ?? defaultConnections
            let next = min(32, max(1, current + (action == .moreConnections ? 1 : -1)))
            guard next != current else {
                report("\(name) already has \(current == 1 ? "one connection at most" : "the most connections, 32")")
                return []
            }
            report("\(name): at most \(next) connection\(next == 1 ? "" : "s")")
            return [.send(.setConnections(.ids([d.id]), next))]
        case .setDownloadLimit:
            beginDownloadLimit(d)
        case .moveInQueue(let place):
            return moveInQueue(d, place)
        case .openFile:
            guard d.state == .finished, let path = d.path else {
                report("\(name) is not finished yet; O opens its folder")
                return []
            }
            if let remote = network.remote {
                report("\(name) is on \(remote.place), not this machine: \(TerminalText.sanitize(path))")
                return []
            }
            report("opening \(name)")
            return [.open(path: path)]
        case .openFolder:
            if let remote = network.remote {
                report("its folder is on \(remote.place), not this machine: \(TerminalText.sanitize(d.directory))")
                return []
            }
            report("opening \(TerminalText.sanitize(d.directory))")
            return [.open(path: d.directory)]
        case .toggleRow: setOpened(d.id, !list.opened.contains(d.id))
        case .openRow: setOpened(d.id, true)
        case .closeRow: setOpened(d.id, false)
        case .newLink:
            if d.state == .finished {
                report("\(name) is finished; it needs no new link")
            } else {
                setMode(.prompt(Prompt(.newLink(d.id))))
            }
        default:
            break
        }
        return []
    }

    /// What the add dialog reads from around it.
    var addContext: AddDialog.Context {
        AddDialog.Context(
            folderRules: surroundings.folderRules, home: surroundings.home,
            defaultDirectory: surroundings.defaultDirectory, remotePlace: network.remote?.place)
    }

    func handleAdd(_ key: Key, _ dialog: inout AddDialog) -> [Effect] {
        switch dialog.handle(key, in: addContext) {
        case .edited:
            mode = .add(dialog)
            redraw.full = true
        case .ignored:
            break
        case .closed:
            setMode(.list)
        case .refused(let why):
            report(why, isError: true)
        case .add(let request):
            setMode(.list)
            report("adding \(request.url)")
            return [.send(.add([request]))]
        case .addTorrentFile(let path, let request):
            setMode(.list)
            report("adding the torrent \(path)")
            return [.addTorrentFile(path: path, request)]
        }
        return []
    }

    func handleFiles(_ key: Key, _ picker: inout FilesPicker) -> [Effect] {
        let count = list.torrentDetails?.files.count ?? 0
        let page = max(1, BoxView.room(screenHeight: grid.height) - 3)
        switch picker.handle(key, fileCount: count, page: page) {
        case .edited:
            mode = .files(picker)
            redraw.full = true
        case .ignored:
            break
        case .closed:
            setMode(.details(picker.id))
        case .refused(let why):
            report(why, isError: true)
        case .select(let selection):
            mode = .files(picker)
            redraw.full = true
            report(selection.map { "fetching files \($0)" } ?? "fetching every file")
            return [.send(.selectFiles(picker.id, selection))]
        }
        return []
    }

    /// What a question reads from around it.
    var confirmContext: Confirmation.Context {
        Confirmation.Context(
            name: { [model] id in model[id].map { TerminalText.sanitize($0.displayName) } ?? id.rawValue },
            // A file on another machine's engine is not this UI's to delete: it stays there.
            deletableFile: { [model, network] id in
                guard let d = model[id], d.state == .finished, network.remote == nil else { return nil }
                return d.path
            })
    }

    func handleConfirm(_ key: Key, _ question: Confirmation) -> [Effect] {
        switch question.answer(key, in: confirmContext) {
        case .quit(let choice):
            return [.quit(choice)]
        case .ask(let next):
            setMode(.confirm(next))
            return []
        case .done(let message, let commands):
            setMode(.list)
            if let message { report(message) }
            return commands.map(Effect.send)
        }
    }

    /// Downloads that go on without the user: running, queued, or held by a policy that lifts by itself.
    public static func keepsGoing(_ d: ListRow) -> Bool { keepsGoing(d.state) }

    /// Whether a download in `state` goes on by itself: it runs, waits, or is held by a policy.
    public static func keepsGoing(_ state: DownloadState) -> Bool { state.isActive || state.isHeld }

    /// Shows what happened while no UI was attached; any key closes it.
    public func showAway(_ report: AwayReport) {
        guard !report.isEmpty else { return }
        setMode(.away(report))
    }

    /// `+` and `-` on a torrent: its connections are peers. With no limit of its own, `-` starts
    /// one below the peers it has now.
    private func changePeerLimit(_ d: ListRow, more: Bool) -> [Effect] {
        let name = TerminalText.sanitize(d.displayName)
        let next: Int
        if let current = d.connections {
            next = min(PeerLimit.most, max(PeerLimit.fewest, current + (more ? 1 : -1)))
            guard next != current else {
                report("\(name) already connects to \(more ? "the most" : "the fewest") peers, \(current)")
                return []
            }
        } else {
            guard !more else {
                report("\(name) has no peer limit: - sets one")
                return []
            }
            next = max(PeerLimit.fewest, (d.torrent?.peers ?? PeerLimit.fewest + 1) - 1)
        }
        report("\(name): \(PeerLimit.describe(next))")
        return [.send(.setConnections(.ids([d.id]), next))]
    }

    func setMode(_ new: Mode) {
        let wasOverlay = mode.isOverlay
        mode = new
        // A box opens at its top; the log at its newest lines.
        list.boxScroll = new == .log ? Int.max : 0
        redraw.status = true
        if wasOverlay || new.isOverlay { redraw.full = true }
        if case .confirm = new { messages.status = nil }
    }
}
