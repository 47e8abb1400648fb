import FoundationEssentials
import HaulCore
import HaulHTTP
import HaulStore

/// The download engine: owns the downloads and the state file, runs transfers, and reports
/// everything that happens as ``EngineEvent``s.
///
/// Commands go in through ``perform(_:)``; events come out of ``subscribe()``. Its state is in
/// named parts, each in a file of its own: the downloads (``DownloadTable``), the state file
/// (``StatePersistence``), the running transfers (``RunningTransfers``), the limits and the
/// metered budget (``BandwidthControl``), the watches, the attached UIs.
public actor Engine {
    public nonisolated let configuration: EngineConfiguration
    /// Set when the state file had to be recovered at start: tell the user.
    public nonisolated let recoveryMessage: String?

    var downloads: DownloadTable
    var settings: StateDocument.Settings
    var persistence: StatePersistence
    var transfers = RunningTransfers()
    var bandwidth: BandwidthControl
    var watches = EngineWatches()
    var attachments: Attachments
    var phase = EnginePhase.loaded
    var rpc = RPCEndpoint()
    var torrents = TorrentState()
    let hub: EventHub
    /// What every transfer shares, made when the engine starts.
    var resources: TransferResources?
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Run at the start of ``shutdown()``, before it awaits anything (``whenShuttingDown(_:)``).
    var shutdownActions: [@Sendable () -> Void] = []
    /// The only downloads this engine starts, when set (``focus(on:)``).
    var focus: Set<DownloadID>?
    /// The hosts whose small files share an HTTP/2 connection, which `-j` counts as one place.
    var sharedHosts = SharedHosts()
    /// Downloads that failed while this engine ran (for `haul run`'s exit code).
    public internal(set) var failedThisRun: Set<DownloadID> = []

    var clock: any MonotonicClock { configuration.clock }

    /// Takes the state-file lock and loads the state. Transfers start only after ``start()``.
    public init(configuration: EngineConfiguration) throws {
        self.configuration = configuration
        hub = EventHub(clock: configuration.clock, pace: configuration.eventPace)
        let file = StateFile(path: configuration.statePath)
        try file.prepareDirectory()
        let lock = try StateLock(statePath: configuration.statePath)
        let control = BandwidthControl(clock: configuration.clock, environment: configuration.environment)
        let loaded = try file.load(now: control.wallClock.now())
        recoveryMessage = loaded.recoveryMessage
        var document = loaded.document
        _ = consume loaded
        let journaled = StateJournal.read(statePath: configuration.statePath)
        // Numbered on from the last record written, whether or not a save covered it.
        let journalCount = max(document.journalMark ?? 0, StateJournal.lastSequence(journaled))
        var persistence = StatePersistence(
            file: file, lock: lock, journalCount: journalCount, now: configuration.clock.now)
        StateJournal.apply(journaled, to: &document)
        settings = document.settings
        bandwidth = control
        let started = bandwidth.wallClock.now()
        let away = document.away ?? (configuration.recordsAway ? AwayReport(since: started) : nil)
        attachments = Attachments(report: away)
        // The decoded array becomes the table's storage: with `document` gone it is uniquely
        // referenced, so reconciling edits it in place instead of copying 100,000 downloads.
        var restored = document.downloads
        let storedAway = document.away
        _ = consume document
        var reconciled = false
        for i in restored.indices {
            if Self.reconcileWithDisk(&restored[i], now: started.toTheMicrosecond) { reconciled = true }
            // The list is the queue: the order keys rise along it, with room to move one to the top.
            let order = DownloadTable.firstQueueOrder + UInt64(i)
            if restored[i].queueOrder != order {
                restored[i].queueOrder = order
                reconciled = true
            }
        }
        downloads = DownloadTable(restored)
        restored = []
        let savedNow = recoveryMessage != nil || !journaled.isEmpty
        if savedNow {
            var saving = StateDocument(settings: settings, downloads: downloads.stored, away: away)
            saving.journalMark = journalCount
            try file.save(saving)
            persistence.journal.clear()
        }
        // Up to date, unless the disk changed a download since the file was written.
        if savedNow || !reconciled {
            persistence.saved = StatePersistence.SavedMark(
                changes: downloads.changeCount, settings: settings, away: savedNow ? away : storedAway,
                journal: persistence.journal.appendCount)
        }
        self.persistence = persistence
        let usage = Self.savedUsage(settings, clock: bandwidth.wallClock)
        bandwidth.usagePeriod = usage.period
        bandwidth.meteredCounter.set(counting: false, used: usage.used, budget: settings.meteredBudget?.bytes)
    }

    /// After a restart the `.part` on disk is the truth; a transfer that was running is queued
    /// again, and a file found placed is finished as of `now`. Returns whether the download changed.
    @discardableResult
    public static func reconcileWithDisk(_ download: inout Download, now: Date) -> Bool {
        let before = download
        // A torrent's swarm is of the run that ended: no peers now, and seeding stopped with it.
        if let torrent = download.torrent, torrent.isLive { download.torrent = torrent.atRest }
        guard download.state != .finished else { return download != before }
        reconcileUnfinished(&download, now: now)
        return download != before
    }

    private static func reconcileUnfinished(_ download: inout Download, now: Date) {
        download.stopRunning()
        guard let name = download.fileName, let part = download.partPath, let path = download.path else {
            download.receivedBytes = 0
            return
        }
        download.activeConnections = nil
        if let size = PartFile.size(at: part) {
            // A map that claims bytes past the `.part`'s end is not of this `.part` (it was
            // emptied or cut since): its pieces would be named finished around bytes that are gone.
            if let segments = download.segments,
                !segments.isMap(ofSize: download.totalBytes ?? -1) || segments.furthestReceived > size
            {
                download.segments = nil
            }
            download.receivedBytes = download.receivedOnDisk(partSize: size)
        } else if download.state == .waiting, let size = PartFile.size(at: path),
            download.totalBytes == nil || download.totalBytes == size
        {
            // The claimed name was free when claimed, so a file there is this download's: the
            // rename happened but the crash came before the state (and journal) said so.
            download.finish(fileName: name, size: size, at: now)
        } else {
            download.receivedBytes = 0
            download.segments = nil
        }
    }

    // MARK: Reading

    /// All downloads in list order (a copy of the list while any is running: for a few, or a
    /// count, ``count(where:)`` and ``ids(where:)`` copy nothing).
    public var allDownloads: [Download] { downloads.all }

    /// How many downloads `isIncluded` accepts.
    public func count(where isIncluded: (Download) -> Bool) -> Int {
        var count = 0
        downloads.forEachDownload { if isIncluded($0) { count += 1 } }
        return count
    }

    /// The ids of the downloads `isIncluded` accepts, in list order.
    public func ids(where isIncluded: (Download) -> Bool) -> [DownloadID] {
        var ids: [DownloadID] = []
        downloads.forEachDownload { if isIncluded($0) { ids.append($0.id) } }
        return ids
    }

    public var concurrency: Int { settings.concurrency }

    public func download(_ id: DownloadID) -> Download? { downloads[id] }

    /// A stream of everything that happens from now on.
    public func subscribe() -> EngineEvents {
        hub.subscribe()
    }

    /// True once ``shutdown()`` was called (for example by a signal).
    public var isShutDown: Bool { phase == .shutDown }

    /// The last error saving the state file, if the most recent save failed.
    public var saveError: String? { persistence.error }

    // MARK: Running

    /// Gets the network machinery going on another thread before an engine is made; for a
    /// command that will start downloads as soon as its state is read.
    public static func warmUpNetworking() { HTTPClientPool.warmUp() }

    /// Starts transfers for waiting downloads, up to the concurrency limit.
    public func start() async {
        guard phase == .loaded else { return }
        phase = .running
        if resources == nil {
            resources = TransferResources(
                pool: HTTPClientPool(settings: configuration.clientSettings), servers: ServerConnections(),
                volumes: DiskSpace.VolumeCache(clock: clock), journal: persistence.journal, clock: clock,
                wallClock: bandwidth.wallClock)
        }
        if settings.meteredMode == .auto { await probeNow() }
        startProbing()
        bandwidth.meteredCounter.set(counting: networkStatus.isMetered, budget: settings.meteredBudget?.bytes)
        bandwidth.lastPublished = networkStatus
        startBandwidthWatch()
        await enforceHolds()
        if downloads.heldCount > 0, downloads.stored.contains(where: { $0.pauseCause?.kind == .diskFull }) {
            watchDiskSpace()
        }
        schedule()
        resumeSeeding()
    }

    /// Returns when nothing is waiting or downloading, and nothing waits for an unmetered
    /// network or for disk space (those resume by themselves).
    public func waitUntilIdle() async {
        if isIdle { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Runs `action` when ``shutdown()`` begins, before anything else can see the engine stop
    /// (at once if it has): whoever serves the engine stops taking new clients there, so none
    /// attaches to an engine that applies no command.
    public func whenShuttingDown(_ action: @escaping @Sendable () -> Void) {
        guard phase != .shutDown else { return action() }
        shutdownActions.append(action)
    }

    public var isIdle: Bool { transfers.isEmpty && downloads.activeCount == 0 && downloads.heldCount == 0 }

    /// Stops every transfer (they resume from their `.part` next time), saves, closes connections
    /// and releases the state file for the next process.
    public func shutdown() async {
        guard phase != .shutDown else { return }
        phase = .shutDown
        let shutdownActions = self.shutdownActions
        self.shutdownActions = []
        for action in shutdownActions { action() }
        watches.cancelAll()
        rpc.finishAll()
        if settings.meteredUsage != nil || bandwidth.meteredCounter.used > 0 {
            settings.meteredUsage = BudgetUsage(bytes: bandwidth.meteredCounter.used, period: bandwidth.usagePeriod)
        }
        let stopping = transfers.removeAll()
        bandwidth.globalGate.setSharers(0)
        for transfer in stopping.values { transfer.task.cancel() }
        for (id, transfer) in stopping {
            await transfer.task.value
            if var download = downloads[id], download.stopRunning() {
                if let size = download.partPath.flatMap(PartFile.size(at:)) {
                    download.receivedBytes = download.receivedOnDisk(partSize: size)
                }
                downloads[id] = download
            }
        }
        await closeTorrents()
        // The connections close while the state is written: neither waits for the other. A
        // run that changed nothing leaves the file as it is (100,000 downloads are ~28 MB).
        let closing = resources?.pool
        resources = nil
        async let closed: Void? = closing?.shutdown()
        if hasUnsavedChanges { await saveNow() }
        // What the journal still keeps, should the save have failed (a save that worked dropped it).
        persistence.journal.flush()
        _ = await closed
        persistence.lock.release()
        hub.finishAll()
        resumeIdleWaiters()
    }

    func resumeIdleWaiters() {
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Scheduling

    func schedule() {
        if phase == .running {
            var places = ConnectionPlaces(running: transfers.sharedHosts(sharedHosts))
            let toStart = downloads.downloadsToStart(
                among: focus, places: &places, limit: settings.concurrency, hosts: sharedHosts)
            for id in toStart { startTransfer(id) }
        }
        if isIdle { resumeIdleWaiters() }
    }

    private func startTransfer(_ id: DownloadID) {
        guard var download = downloads[id], let resources, download.start() else { return }
        downloads[id] = download
        let generation = transfers.takeGeneration()
        let limit = ConnectionLimit(connections(for: download))
        let gate = RateGate(clock: clock)
        gate.setRate(speedLimit(for: download))
        let start = TransferStart(
            download: download, generation: generation, connections: limit,
            throttle: Throttle(global: bandwidth.globalGate, own: gate, metered: bandwidth.meteredCounter),
            resources: resources, reports: RunReports(engine: self, id: id, generation: generation))
        let transfer = makeTransfer(start)
        let previous = transfers.stillStopping(id)
        let task = resources.pool.lanes.run {
            await previous?.value
            await transfer.run()
        }
        let origin = download.isTorrent ? nil : SharedHosts.origin(of: download.url)
        transfers.add(id, .init(generation: generation, task: task, connections: limit, gate: gate, origin: origin))
        bandwidth.globalGate.setSharers(transfers.count)
        changed(download)
    }

    /// The transfer for a download of its kind: the one place the engine names a protocol.
    private func makeTransfer(_ start: TransferStart) -> any Transfer {
        switch TransferKind(start.download) {
        case .http: return HTTPTransfer(start, settings: settings, configuration: configuration)
        case .torrent:
            let http = WebSeedFeeder.HTTP(
                policy: TransferPolicy(userAgent: configuration.userAgent, maxRedirects: configuration.maxRedirects),
                transport: ClientTransport(pool: start.resources.pool, pacing: start.throttle),
                proxies: settings.proxies ?? ProxySettings(), hosts: settings.hosts ?? HostSettings())
            return TorrentTransfer(start: start, session: torrentSession(), store: torrentStore, webSeedHTTP: http)
        }
    }

    /// Cancels the transfer of `id`, if any, and waits until it has stopped writing.
    func stopTransfer(_ id: DownloadID) async {
        guard let transfer = transfers.beginStopping(id) else { return }
        bandwidth.globalGate.setSharers(transfers.count)
        transfer.task.cancel()
        await transfer.task.value
        transfers.stopped(id, transfer.task)
    }

    // MARK: Events and saving

    /// Publishes a changed download and saves soon.
    func changed(_ download: Download) {
        publish(.updated(download))
        recordAway(download)
        scheduleSave(after: configuration.transitionSaveDelay)
    }

    /// Hands `event` to the subscribers once the work the engine is doing now is done (see
    /// ``EventHub``).
    func publish(_ event: EngineEvent) {
        // Detached: not a job on this actor (see ``EventHub``).
        guard let delay = hub.hold(event) else { return }
        Task.detached { [hub, clock] in
            if delay > .zero { try? await clock.sleep(for: delay) }
            hub.deliverHeld()
        }
    }

    func scheduleSave(after delay: Duration) {
        guard !persistence.scheduled else { return }
        persistence.scheduled = true
        let wait = persistence.wait(for: delay, now: clock.now)
        Task { [clock] in
            try? await clock.sleep(for: wait)
            await self.saveNow()
        }
    }

    /// Journals `changed` whole in one synced write, now: for a change a transfer makes that what
    /// it writes next depends on, which the coalesced save would record too late for a crash.
    func journalNow(_ changed: [Download]) {
        guard persistence.lock.isHeld else { return }
        persistence.journal.appendRecords(changed)
    }

    /// Writes the state file now (through the saver, so encoding happens off this actor).
    /// A failure is kept in ``saveError`` and retried on the next change.
    public func saveNow() async {
        persistence.scheduled = false
        guard persistence.lock.isHeld else { return }
        let began = clock.now
        persistence.lastSave = began
        persistence.sequence += 1
        let sequence = persistence.sequence
        let mark = currentMark()
        // The rows as stored (shared, not copied) and the newer byte counts of running downloads.
        var document = StateDocument(settings: settings, downloads: downloads.stored, away: attachments.report)
        document.journalMark = mark.journal
        let error = await persistence.saver.write(document, progress: downloads.progress, sequence: sequence)
        persistence.lastSaveCost = clock.now - began
        persistence.error = error
        guard error == nil else { return }
        // Journal entries written after the snapshot must stay until a later save has them.
        persistence.journal.clear(ifNothingAppendedSince: mark.journal)
        // A save that finished after a newer one leaves the mark behind: one save too many, never one too few.
        persistence.saved = mark
    }

    func currentMark() -> StatePersistence.SavedMark {
        .init(
            changes: downloads.changeCount, settings: settings, away: attachments.report,
            journal: persistence.journal.appendCount)
    }

    /// Whether something changed since the state file was last written (or it never was).
    var hasUnsavedChanges: Bool { persistence.saved != currentMark() }
}
