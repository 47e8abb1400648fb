import Foundation
import HaulCore
import HaulHTTP
import HaulStore

/// The download engine: owns the downloads and the state file, runs transfers, and reports
/// everything that happens as ``EngineEvent``s.
///
/// Commands go in through ``perform(_:)``; events come out of ``subscribe()``. Both are
/// Codable values, so the same engine can later sit behind a socket.
public actor Engine {
    public let configuration: EngineConfiguration
    /// Set when the state file had to be recovered at start: tell the user.
    public nonisolated let recoveryMessage: String?

    var downloads = DownloadTable()
    var settings: StateDocument.Settings
    /// Outcomes recorded while no UI was attached; see ``AwayReport``.
    var away: AwayReport?
    var attachedUIs = 0
    var nextQueueOrder: UInt64 = 0

    let hub = EventHub()
    let stateFile: StateFile
    let lock: StateLock
    let journal: StateJournal
    /// Free space of the download directories, for transfers' early disk-full check.
    let volumes = DiskSpace.VolumeCache()
    var saveScheduled = false
    let saver: StateSaver
    var saveSequence: UInt64 = 0
    var lastSave = Monotonic.seconds()
    /// What the state file holds as of the last save that succeeded; nil when it is behind.
    var saved: SavedMark?

    /// Running transfer tasks and the generation each was started with.
    var transfers: [DownloadID: (generation: UInt64, task: Task<Void, Never>)] = [:] {
        didSet { if transfers.count != oldValue.count { globalGate.setSharers(transfers.count) } }
    }
    /// Transfers told to stop that may still be finishing a write; a restart waits for them.
    var stopping: [DownloadID: Task<Void, Never>] = [:]
    var nextGeneration: UInt64 = 1
    var speed: [DownloadID: SpeedMeter] = [:]
    /// The connection limit of each running download, which a command can change as it runs.
    var connectionLimits: [DownloadID: ConnectionLimit] = [:]
    /// Connections open to each server, across downloads.
    let serverConnections = ServerConnections()
    var pool: HTTPClientPool?
    /// The global speed limit (with the metered cap) every transfer reads through.
    let globalGate = RateGate()
    /// Each running download's own limit.
    var downloadGates: [DownloadID: RateGate] = [:]
    /// Counts what is received while metered, against the data budget.
    let meteredCounter = MeteredCounter()
    /// The budget period ``meteredCounter`` counts for.
    var usagePeriod = ""
    let clock: WallClock
    var bandwidthWatch: Task<Void, Never>?
    /// The status last published, to publish only what changed.
    var lastNetworkStatus: NetworkStatus?
    var meteredVerdict: MeteredVerdict = .unknown
    var probeTask: Task<Void, Never>?
    var diskWatch: Task<Void, Never>?
    var running = false
    /// True once ``shutdown()`` was called (for example by a signal).
    public private(set) var isShutDown = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Downloads that failed while this engine ran (for `haul run`'s exit code).
    public internal(set) var failedThisRun: Set<DownloadID> = []

    /// Takes the state-file lock and loads the state. Transfers start only after ``start()``.
    public init(configuration: EngineConfiguration) throws {
        self.configuration = configuration
        clock = WallClock(environment: configuration.environment)
        stateFile = StateFile(path: configuration.statePath)
        saver = StateSaver(file: stateFile)
        try stateFile.prepareDirectory()
        lock = try StateLock(statePath: configuration.statePath)
        let loaded = try stateFile.load()
        journal = StateJournal(statePath: configuration.statePath)
        let journaled = StateJournal.read(statePath: configuration.statePath)
        recoveryMessage = loaded.recoveryMessage
        settings = loaded.document.settings
        away = loaded.document.away ?? (configuration.recordsAway ? AwayReport(since: Date()) : nil)
        // The decoded array becomes the table's storage: with `loaded` gone it is uniquely
        // referenced, so reconciling edits it in place instead of copying 100,000 downloads.
        var restored = loaded.document.downloads
        let storedAway = loaded.document.away
        _ = consume loaded
        StateJournal.apply(journaled, to: &restored)
        var reconciled = false
        for i in restored.indices {
            if Self.reconcileWithDisk(&restored[i]) { reconciled = true }
            // The list is the queue: the order keys rise along it, with room to move one to the top.
            let order = DownloadTable.firstQueueOrder + UInt64(i)
            if restored[i].queueOrder != order {
                restored[i].queueOrder = order
                reconciled = true
            }
        }
        let queueOrder = DownloadTable.firstQueueOrder + UInt64(restored.count)
        downloads = DownloadTable(restored)
        restored = []
        let savedNow = recoveryMessage != nil || !journaled.isEmpty
        if savedNow {
            try stateFile.save(StateDocument(settings: settings, downloads: downloads.stored, away: away))
            journal.clear()
        }
        // Up to date, unless the disk changed a download since the file was written.
        if savedNow || !reconciled {
            saved = SavedMark(
                changes: downloads.changeCount, settings: settings, away: savedNow ? away : storedAway,
                journal: journal.appendCount)
        }
        nextQueueOrder = queueOrder
        let usage = Self.savedUsage(settings, clock: clock)
        usagePeriod = usage.period
        meteredCounter.set(counting: false, used: usage.used, budget: settings.meteredBudget?.bytes)
    }

    /// After a restart the `.part` on disk is the truth; a transfer that was running is queued
    /// again. Returns whether the download changed.
    @discardableResult
    public static func reconcileWithDisk(_ download: inout Download) -> Bool {
        guard download.state != .finished else { return false }
        let before = download
        reconcileUnfinished(&download)
        return download != before
    }

    private static func reconcileUnfinished(_ download: inout Download) {
        download.stopRunning()
        guard let name = download.fileName, let part = download.partPath, let path = download.path else {
            download.receivedBytes = 0
            return
        }
        download.activeConnections = nil
        if let size = PartFile.size(at: part) {
            if let segments = download.segments, !segments.isMap(ofSize: download.totalBytes ?? -1) {
                download.segments = nil
            }
            download.receivedBytes = download.receivedOnDisk(partSize: size)
        } else if download.state == .waiting, let size = PartFile.size(at: path),
            download.totalBytes == nil || download.totalBytes == size
        {
            // The claimed name was free when claimed, so a file there is this download's: the
            // rename happened but the crash came before the state (and journal) said so.
            download.finish(fileName: name, size: size)
        } else {
            download.receivedBytes = 0
            download.segments = nil
        }
    }

    // MARK: Reading

    /// All downloads in list order.
    public var allDownloads: [Download] { downloads.all }

    public var concurrency: Int { settings.concurrency }

    public func download(_ id: DownloadID) -> Download? { downloads[id] }

    /// A stream of everything that happens from now on.
    public func subscribe() -> EngineEvents {
        hub.subscribe { [hub] key in hub.unsubscribe(key) }
    }

    // MARK: Running

    /// Gets the network machinery going on another thread before an engine is made; for a
    /// command that will start downloads as soon as its state is read.
    public static func warmUpNetworking() { HTTPClientPool.warmUp() }

    /// Starts transfers for waiting downloads, up to the concurrency limit.
    public func start() async {
        guard !running, !isShutDown else { return }
        running = true
        if pool == nil { pool = HTTPClientPool(settings: configuration.clientSettings) }
        if settings.meteredMode == .auto { await probeNow() }
        startProbing()
        meteredCounter.set(counting: networkStatus.isMetered, budget: settings.meteredBudget?.bytes)
        lastNetworkStatus = networkStatus
        startBandwidthWatch()
        await enforceHolds()
        if downloads.stored.contains(where: { $0.pauseCause == .diskFull }) { watchDiskSpace() }
        schedule()
    }

    /// Returns when nothing is waiting or downloading, and nothing waits for an unmetered
    /// network or for disk space (those resume by themselves).
    public func waitUntilIdle() async {
        if isIdle { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    public var isIdle: Bool { transfers.isEmpty && downloads.activeCount == 0 && downloads.heldCount == 0 }

    /// Stops every transfer (they resume from their `.part` next time), saves, closes connections
    /// and releases the state file for the next process.
    public func shutdown() async {
        guard !isShutDown else { return }
        isShutDown = true
        running = false
        probeTask?.cancel()
        probeTask = nil
        bandwidthWatch?.cancel()
        bandwidthWatch = nil
        if settings.meteredUsage != nil || meteredCounter.used > 0 {
            settings.meteredUsage = BudgetUsage(bytes: meteredCounter.used, period: usagePeriod)
        }
        diskWatch?.cancel()
        diskWatch = nil
        let stopping = transfers
        for (id, transfer) in stopping {
            transfer.task.cancel()
            transfers[id] = nil
        }
        for (id, transfer) in stopping {
            await transfer.task.value
            if var download = downloads[id], download.stopRunning() {
                if let size = download.partPath.flatMap(PartFile.size(at:)) {
                    download.receivedBytes = download.receivedOnDisk(partSize: size)
                }
                downloads[id] = download
            }
        }
        // The connections close while the state is written: neither waits for the other. A
        // run that changed nothing leaves the file as it is (100,000 downloads are ~28 MB).
        let closing = pool
        pool = nil
        async let closed: Void? = closing?.shutdown()
        if hasUnsavedChanges { await saveNow() }
        // What the journal still keeps, should the save have failed (a save that worked dropped it).
        journal.flush()
        _ = await closed
        lock.release()
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
        if running {
            let toStart = downloads.downloadsToStart(running: transfers.count, limit: settings.concurrency)
            for id in toStart { startTransfer(id) }
        }
        if isIdle { resumeIdleWaiters() }
    }

    private func startTransfer(_ id: DownloadID) {
        guard var download = downloads[id], let pool else { return }
        let generation = nextGeneration
        nextGeneration += 1
        download.start()
        downloads[id] = download
        speed[id] = SpeedMeter()
        let limit = ConnectionLimit(download.connections ?? settings.connections)
        connectionLimits[id] = limit
        let job = TransferJob(
            id: id, generation: generation, directory: download.directory, requestedName: download.requestedName,
            fileName: download.fileName, checksum: download.checksum,
            cookieFile: download.cookieFile ?? settings.cookieFile,
            target: TransferTarget(
                url: download.url, headers: download.headers, etag: download.etag, lastModified: download.lastModified),
            totalBytes: download.totalBytes, segments: download.segments, sourceURL: download.finalURL,
            connections: limit, throttle: throttle(for: download), linkUnchecked: download.linkUnchecked
        )
        let runner = TransferRunner(engine: self, pool: pool, throttle: job.throttle, configuration: configuration)
        let previous = stopping[id]
        transfers[id] = (
            generation,
            pool.lanes.run {
                await previous?.value
                await runner.run(job)
            }
        )
        changed(download)
    }

    /// Cancels the transfer of `id`, if any, and waits until it has stopped writing.
    func stopTransfer(_ id: DownloadID) async {
        guard let transfer = transfers.removeValue(forKey: id) else { return }
        transfer.task.cancel()
        speed[id] = nil
        connectionLimits[id] = nil
        downloadGates[id] = nil
        stopping[id] = transfer.task
        await transfer.task.value
        if stopping[id] == transfer.task { stopping[id] = nil }
    }

    // MARK: Events and saving

    /// Publishes a changed download and saves soon.
    func changed(_ download: Download) {
        publish(.updated(download))
        recordAway(download)
        scheduleSave(delay: configuration.transitionSaveDelay)
    }

    /// Hands `event` to the subscribers once the work the engine is doing now is done (see
    /// ``EventHub``).
    func publish(_ event: EngineEvent) {
        // Detached: not a job on this actor (see ``EventHub``).
        guard let delay = hub.hold(event) else { return }
        Task.detached { [hub] in
            if delay > 0 { try? await Task.sleep(for: .microseconds(Int64(delay * 1_000_000))) }
            hub.deliverHeld()
        }
    }

    func scheduleSave(delay: Double) {
        guard !saveScheduled else { return }
        saveScheduled = true
        Task {
            try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
            await self.saveNow()
        }
    }

    /// Writes the state file now (through the saver, so encoding happens off this actor).
    /// A failure is kept in ``saveError`` and retried on the next change.
    public func saveNow() async {
        saveScheduled = false
        guard lock.isHeld else { return }
        lastSave = Monotonic.seconds()
        saveSequence += 1
        let sequence = saveSequence
        let mark = currentMark()
        // The rows as stored (shared, not copied) and the newer byte counts of running downloads.
        let document = StateDocument(settings: settings, downloads: downloads.stored, away: away)
        let error = await saver.write(document, progress: downloads.progress, sequence: sequence)
        saveError = error
        guard error == nil else { return }
        // Journal entries written after the snapshot must stay until a later save has them.
        journal.clear(ifNothingAppendedSince: mark.journal)
        // A save that finished after a newer one leaves the mark behind: one save too many, never one too few.
        saved = mark
    }

    /// What a save writes, told by counts and values rather than by copying the downloads.
    struct SavedMark: Equatable {
        var changes: Int
        var settings: StateDocument.Settings
        var away: AwayReport?
        var journal: Int
    }

    func currentMark() -> SavedMark {
        SavedMark(changes: downloads.changeCount, settings: settings, away: away, journal: journal.appendCount)
    }

    /// Whether something changed since the state file was last written (or it never was).
    var hasUnsavedChanges: Bool { saved != currentMark() }

    /// The last error saving the state file, if the most recent save failed.
    public private(set) var saveError: String?
}
