import HaulCore

/// The downloads being fetched now, one entry each with what the engine keeps for it while it
/// runs, and the transfers told to stop that may still be finishing a write.
///
/// Each run has a generation: a transfer reports with the one it was started with, and a report
/// from a run that was paused, cancelled or replaced finds another generation (or none) here and
/// changes nothing.
struct RunningTransfers {
    struct Transfer {
        let generation: UInt64
        let task: Task<Void, Never>
        /// Its speed and ETA, from the byte counts it reports.
        var speed = SpeedMeter()
        /// The most connections it may use, which a command can change while it runs.
        let connections: ConnectionLimit
        /// Its own speed limit, which a command can change while it runs.
        let gate: RateGate
        /// What its connection is made to (``SharedHosts/origin(of:)``); nil for a torrent.
        let origin: String?
        /// Whether its file is known to be too large to share a place (see ``ConnectionPlaces``).
        var large = false
    }

    private var running: [DownloadID: Transfer] = [:]
    private var stopping: [DownloadID: (task: Task<Void, Never>, generation: UInt64)] = [:]
    private var nextGeneration: UInt64 = 1

    var count: Int { running.count }
    var isEmpty: Bool { running.isEmpty }
    var ids: Dictionary<DownloadID, Transfer>.Keys { running.keys }
    var all: Dictionary<DownloadID, Transfer>.Values { running.values }

    subscript(id: DownloadID) -> Transfer? { running[id] }

    /// Whether `generation` is the run of `id` going on now.
    func isCurrent(_ id: DownloadID, _ generation: UInt64) -> Bool { running[id]?.generation == generation }

    /// Whether `generation` is a run of `id` told to stop that has not ended yet: it may still
    /// place its file, and a file placed is finished whatever the run was told.
    func isStopping(_ id: DownloadID, _ generation: UInt64) -> Bool { stopping[id]?.generation == generation }

    /// A number for a new run; no two runs get the same.
    mutating func takeGeneration() -> UInt64 {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    /// The run of `id` that was told to stop and may still be writing: a new run waits for it.
    func stillStopping(_ id: DownloadID) -> Task<Void, Never>? { stopping[id]?.task }

    mutating func add(_ id: DownloadID, _ transfer: Transfer) { running[id] = transfer }

    /// The shared host each running download rides, nil for one that takes a place of its own
    /// (see ``ConnectionPlaces``).
    func sharedHosts(_ hosts: SharedHosts) -> [String?] {
        guard !hosts.isEmpty else { return [String?](repeating: nil, count: running.count) }
        return running.values.map { transfer in
            transfer.origin.flatMap { !transfer.large && hosts.shares($0) ? $0 : nil }
        }
    }

    /// Notes whether the file `id` fetches is too large to share a place.
    mutating func setLarge(_ id: DownloadID, _ large: Bool) { running[id]?.large = large }

    /// The run of `id` ended by itself (finished or failed for good).
    @discardableResult
    mutating func remove(_ id: DownloadID) -> Transfer? { running.removeValue(forKey: id) }

    /// Takes `id`'s run out to be stopped; it counts as stopping until ``stopped(_:_:)``.
    mutating func beginStopping(_ id: DownloadID) -> Transfer? {
        guard let transfer = running.removeValue(forKey: id) else { return nil }
        stopping[id] = (transfer.task, transfer.generation)
        return transfer
    }

    /// `task`, the run of `id` told to stop, has ended.
    mutating func stopped(_ id: DownloadID, _ task: Task<Void, Never>) {
        if stopping[id]?.task == task { stopping[id] = nil }
    }

    /// Takes every run out to be stopped (the engine shuts down).
    mutating func removeAll() -> [DownloadID: Transfer] {
        defer { running = [:] }
        for (id, transfer) in running { stopping[id] = (transfer.task, transfer.generation) }
        return running
    }

    /// The transfers that reported no bytes for `quiet` before `now` while their speed said bytes
    /// were moving; their speed is zero from now.
    mutating func settleQuiet(at now: Duration, after quiet: Duration) -> [DownloadID] {
        var settled: [DownloadID] = []
        for (id, transfer) in running where transfer.speed.isQuiet(at: now, after: quiet) {
            running[id]?.speed.settle()
            settled.append(id)
        }
        return settled
    }

    /// Records the bytes `id` has at `now`; returns its speed and ETA for `remaining` bytes.
    mutating func recordSpeed(_ id: DownloadID, received: Int64, remaining: Int64?, at now: Duration) -> (
        bytesPerSecond: Double, eta: Double?
    ) {
        guard var transfer = running[id] else { return (0, nil) }
        transfer.speed.record(bytes: received, at: now)
        running[id] = transfer
        return (transfer.speed.bytesPerSecond, transfer.speed.eta(remaining: remaining))
    }
}
