import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// What `haul run` prints: on a terminal a block of live lines, one per active download and
/// under them the list's tally, with finished/failed/notice lines scrolling above it; otherwise
/// plain log lines.
///
/// Owned by the one task that consumes the event stream.
final class RunReporter {
    private let interactive: Bool
    /// `-q`: only the lines that say why a download failed, on standard error.
    private let quiet: Bool
    /// `-nv`: no live lines and no line when a download starts.
    private let brief: Bool
    /// The daemon under systemd: every line goes to standard error with its journal priority.
    private let journal: Bool
    private var names: [DownloadID: String] = [:]
    private var active: [DownloadID: ProgressSample] = [:]
    private var activeOrder: [DownloadID] = []
    /// The active downloads that are torrents: their lines count peers, not a server's answer.
    private var torrents: Set<DownloadID> = []
    /// The active downloads that wait for the machine's network to come back.
    private var offline: Set<DownloadID> = []
    private var network: NetworkStatus?
    private var drawnLines = 0
    /// When the live block was last drawn; the clock starts near 0 with the process, so the first
    /// draw must not wait for the interval.
    private var lastDraw = -Double.infinity
    /// The live block must be drawn after this burst, whatever the interval: it was cleared for a
    /// log line, or a line came or went. Only progress waits for the interval, as the next burst
    /// of progress draws it anyway; a download that starts and then waits for its server would
    /// otherwise show nothing until its first byte.
    private var mustDraw = false
    /// What to write after the current burst of events: one write per burst, not per line.
    /// Bytes: with 1,000 small files the log lines' string interpolation was ~13,000 appends.
    private var output: [UInt8] = []

    /// The downloads waiting or running when reporting began, for the name of one that speaks
    /// (a notice) before any update about it arrived. (Not the whole list: with 100,000
    /// downloads, mostly finished, that would hold ~30 MB for the whole run.)
    private let known: [Download]
    /// What a retry's countdown is told against: the engine's wall clock.
    private let clock: WallClock
    /// The run's downloads at a glance, under the live lines.
    private var tally: RunTally

    init(
        interactive: Bool, downloads: [Download], network: NetworkStatus?, clock: WallClock, journal: Bool = false,
        quiet: Bool = false, brief: Bool = false
    ) {
        self.interactive = interactive && !quiet && !brief
        self.quiet = quiet
        self.brief = brief
        self.clock = clock
        self.journal = journal && !interactive
        self.network = network
        // One pass by index: `for d in downloads` would copy every download (retaining its
        // strings), and a list may hold 100,000.
        var known: [Download] = []
        var held: [Download] = []
        for i in downloads.indices where downloads[i].state != .finished {
            let d = downloads[i]
            if d.state.isActive { known.append(d) }
            // Names are worked out when a download starts or first speaks, not for the whole list.
            if d.state == .downloading { names[d.id] = TerminalText.sanitize(d.displayName) }
            if d.isHeld { held.append(d) }
        }
        self.known = known
        tally = RunTally(files: known.count + held.count)
        // `haul run` waits for these: say so, or a run that has nothing else to do looks stuck.
        for d in held { logHeld(d, name: TerminalText.sanitize(d.displayName)) }
    }

    func consume(_ events: EngineEvents) async {
        for await burst in events.bursts {
            for event in burst { handle(event) }
            if interactive { redraw(force: mustDraw) }
            flush()
        }
        clearBlock()
        flush()
    }

    private func handle(_ event: EngineEvent) {
        switch event {
        case .added(let d):
            names[d.id] = nil
            if d.state.isActive { tally.recordAdded() }
        case .updated(let d):
            // The name shown can change (the server names the file), so it is refreshed on each update that logs.
            func name() -> String {
                let name = TerminalText.sanitize(d.displayName)
                names[d.id] = name
                return name
            }
            switch d.state {
            case .downloading where active[d.id] == nil:
                active[d.id] = ProgressSample(
                    id: d.id, receivedBytes: d.receivedBytes, totalBytes: d.totalBytes, bytesPerSecond: 0,
                    etaSeconds: nil)
                activeOrder.append(d.id)
                if d.isTorrent { torrents.insert(d.id) }
                mustDraw = true
                let shown = name()
                if !interactive, !brief { log(d.id, " started ", shown) }
            case .downloading:
                active[d.id]?.totalBytes = d.totalBytes
                if d.fileName != nil { _ = name() }
                let waits = d.isWaitingForNetwork
                if waits != offline.contains(d.id) {
                    if waits { offline.insert(d.id) } else { offline.remove(d.id) }
                    mustDraw = true
                }
            case .finished:
                names[d.id] = nil
                if stopTracking(d.id) {
                    tally.recordFinished(bytes: d.receivedBytes)
                    log(
                        d.id, " finished ", TerminalText.sanitize(d.path ?? d.displayName), " (",
                        Formatting.bytes(d.receivedBytes), ")")
                }
            case .failed:
                let wasRunning = stopTracking(d.id)
                if wasRunning { d.failureReason == .cancelled ? tally.recordRemoved() : tally.recordFailed() }
                if wasRunning || d.failureReason != .cancelled {
                    log("\(d.id) failed \(name()): \(TerminalText.sanitize(d.reason ?? "failed"))", .warning)
                }
            case .paused where d.isHeld:
                _ = stopTracking(d.id)
                logHeld(d, name: name())
            case .paused, .waiting:
                _ = stopTracking(d.id)
            }
        case .progress(let sample):
            guard active[sample.id] != nil else { return }
            active[sample.id] = sample
        case .notice(let id, let message):
            // A finished download (a torrent that cannot seed) is not among those known by name.
            let name = name(of: id)
            log("\(id)\(name.isEmpty ? "" : " " + name): \(ReasonText.notice(message, now: clock.now()))", .notice)
        case .removed(let id):
            if stopTracking(id) { tally.recordRemoved() }
        case .removedMany(let ids):
            for id in ids where stopTracking(id) { tally.recordRemoved() }
        case .network(let status):
            logChanges(from: network, to: status)
            network = status
        case .moved:
            break
        }
    }

    /// What the user changed in the network status (the budget's count changes all the time
    /// while metered and is not logged).
    private func logChanges(from old: NetworkStatus?, to new: NetworkStatus) {
        if old?.label != new.label { log("metered network: \(new.label)") }
        if let old, old.speedLimitLabel != new.speedLimitLabel { log("speed limit: \(new.speedLimitLabel)") }
        if let old, old.budget != new.budget { log("metered data budget: \(new.budget?.label ?? "none")") }
    }

    private func name(of id: DownloadID) -> String {
        if let name = names[id] { return name }
        guard let download = known.first(where: { $0.id == id }) else { return "" }
        let name = TerminalText.sanitize(download.displayName)
        names[id] = name
        return name
    }

    private func stopTracking(_ id: DownloadID) -> Bool {
        guard active.removeValue(forKey: id) != nil else { return false }
        torrents.remove(id)
        offline.remove(id)
        mustDraw = true
        if let position = activeOrder.firstIndex(of: id) { activeOrder.remove(at: position) }
        return true
    }

    /// A download paused by a policy (a full disk, a metered network): it resumes by itself,
    /// and the run waits for it.
    private func logHeld(_ d: Download, name: String) {
        log(
            d.id, " paused ", name, ": ", TerminalText.sanitize(d.reason ?? "held"),
            " (resumes by itself; the run waits for it, Ctrl-C stops)", priority: .notice)
    }

    /// A line above the live block. A log file or pipe (the daemon's log) gets it at the end of
    /// the burst it came in, not when the process exits.
    private func log(_ line: String, _ priority: JournalStream.Priority = .info) {
        guard !quiet || priority == .warning else { return }
        makeRoomForLogLine()
        if journal { output.append(contentsOf: priority.prefix.utf8) }
        emit(line)
    }

    /// A log line of a download's id and `parts`, put together as bytes.
    private func log(_ id: DownloadID, _ parts: String..., priority: JournalStream.Priority = .info) {
        guard !quiet || priority == .warning else { return }
        makeRoomForLogLine()
        if journal { output.append(contentsOf: priority.prefix.utf8) }
        output.append(contentsOf: id.rawValue.utf8)
        for part in parts { output.append(contentsOf: part.utf8) }
        output.append(UInt8(ascii: "\n"))
    }

    private func makeRoomForLogLine() {
        guard interactive else { return }
        clearBlock()
        mustDraw = true
    }

    private func emit(_ line: String, terminator: String = "\n") {
        output.append(contentsOf: line.utf8)
        output.append(contentsOf: terminator.utf8)
    }

    private func flush() {
        guard !output.isEmpty else { return }
        if journal || quiet {
            FileHandleWriter.stderr(String(decoding: output, as: UTF8.self))
        } else {
            output.withUnsafeBytes { _ = FileHandleWriter.stdout($0) }
        }
        output.removeAll(keepingCapacity: true)
    }

    private func redraw(force: Bool) {
        let now = ProcessClock.seconds()
        guard force || now - lastDraw >= 0.2 else { return }
        lastDraw = now
        mustDraw = false
        clearBlock()
        for id in activeOrder {
            guard let sample = active[id] else { continue }
            emit(line(for: sample))
        }
        drawnLines = activeOrder.count
        if let line = tally.line(running: active.values, now: now) {
            emit(line)
            drawnLines += 1
        }
    }

    private func clearBlock() {
        guard interactive, drawnLines > 0 else { return }
        // Up to the first live line, then clear to the end of the screen.
        emit("\u{1B}[\(drawnLines)F\u{1B}[J", terminator: "")
        drawnLines = 0
    }

    private func line(for sample: ProgressSample) -> String {
        let name = names[sample.id] ?? sample.id.rawValue
        let percent =
            Formatting.percent(received: sample.receivedBytes, total: sample.totalBytes).map { "\($0)%" } ?? "  ?"
        let size =
            sample.totalBytes.map { "\(Formatting.bytes(sample.receivedBytes)) / \(Formatting.bytes($0))" }
            ?? Formatting.bytes(sample.receivedBytes)
        let shortName = name.count > 40 ? String(name.prefix(39)) + "…" : name
        if offline.contains(sample.id) {
            return "\(sample.id) \(percent) \(size)  no network, waiting  \(shortName)"
        }
        // Before its first byte an HTTP download waits on its server (connecting, or a stream the
        // server has not opened yet): "0 B/s" would read as a stall.
        if sample.receivedBytes == 0, sample.totalBytes == nil, !torrents.contains(sample.id) {
            return "\(sample.id) waiting for the server  \(shortName)"
        }
        let connections = sample.connections.map { "  ×\($0)" } ?? ""
        return
            "\(sample.id) \(percent) \(size)  \(Formatting.rate(sample.bytesPerSecond))  ETA "
            + "\(Formatting.duration(sample.etaSeconds))\(connections)  \(shortName)"
    }

    /// Says, when a torrent finished that owes seeding under `settings`, that it is not seeded once
    /// this command returns, and who seeds it on.
    static func noteSeeding(_ downloads: [Download], under settings: TorrentSettings?) {
        let settings = settings ?? TorrentSettings()
        guard
            downloads.contains(where: {
                $0.state == .finished
                    && $0.torrent?.owesSeeding(
                        size: $0.totalBytes, under: settings.seeding(toward: $0.request.seedGoal)) == true
            })
        else { return }
        Console.warn(
            "torrents seed only while a daemon ('haul daemon') or the UI runs; this command stops here, "
                + "and the next daemon or UI seeds them on")
    }

    static func summary(
        _ downloads: [Download], failedIDs: Set<DownloadID>, interrupted: Bool, goingOnIn owner: String? = nil
    ) {
        FileHandleWriter.stdout(
            summaryLine(downloads, failedIDs: failedIDs, interrupted: interrupted, goingOnIn: owner) + "\n")
    }

    /// The same of downloads in these `states`.
    static func summary(
        states: [DownloadState], failedIDs: Set<DownloadID>, interrupted: Bool, goingOnIn owner: String? = nil
    ) {
        FileHandleWriter.stdout(
            summaryLine(states: states, failedIDs: failedIDs, interrupted: interrupted, goingOnIn: owner) + "\n")
    }

    /// "done: 3 finished, 1 failed" or "interrupted; progress saved: …", without the newline.
    /// `owner`: the haul that runs the downloads, when this command only followed them; a Ctrl-C
    /// then stopped the following, not the downloads, and the line says so.
    static func summaryLine(
        _ downloads: [Download], failedIDs: Set<DownloadID>, interrupted: Bool, goingOnIn owner: String? = nil
    ) -> String {
        // Counted in one pass (a `filter` per state copied every download it kept).
        var tally = StateCount()
        for i in downloads.indices { tally.add(downloads[i].state) }
        return summaryLine(tally, failedIDs: failedIDs, interrupted: interrupted, goingOnIn: owner)
    }

    /// The same of downloads in these `states`.
    static func summaryLine(
        states: [DownloadState], failedIDs: Set<DownloadID>, interrupted: Bool, goingOnIn owner: String? = nil
    ) -> String {
        var tally = StateCount()
        for state in states { tally.add(state) }
        return summaryLine(tally, failedIDs: failedIDs, interrupted: interrupted, goingOnIn: owner)
    }

    /// Downloads by the states the summary names.
    private struct StateCount {
        var finished = 0
        var waiting = 0
        var paused = 0

        mutating func add(_ state: DownloadState) {
            switch state {
            case .finished: finished += 1
            case .waiting, .downloading: waiting += 1
            case .paused: paused += 1
            case .failed: break
            }
        }
    }

    private static func summaryLine(
        _ tally: StateCount, failedIDs: Set<DownloadID>, interrupted: Bool, goingOnIn owner: String?
    ) -> String {
        // Put together by hand and written, not printed: `print` and `[String].joined` look up
        // protocol conformances at run time (scans of every conformance record), on the path
        // between the last file and the exit.
        let followedOnly = interrupted && owner != nil
        var line =
            followedOnly
            ? "stopped following; " + (owner ?? "") + " goes on: "
            : interrupted ? "interrupted; progress saved: " : "done: "
        line += String(tally.finished) + " finished"
        if !failedIDs.isEmpty { line += ", " + String(failedIDs.count) + " failed" }
        if tally.paused > 0 { line += ", " + String(tally.paused) + " paused" }
        if tally.waiting > 0 { line += ", " + String(tally.waiting) + (followedOnly ? " to go" : " left to resume") }
        return line
    }
}
