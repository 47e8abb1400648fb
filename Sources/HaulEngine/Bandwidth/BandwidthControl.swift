import HaulCore
import HaulHTTP
import HaulStore

/// What every transfer's reads go through and what decides it: the global gate (the global limit
/// in force, with the metered cap while metered), the metered budget's counter and the period it
/// counts for, the metered probe's verdict, the local time windows follow, and the network status
/// last published (only what changed is published again).
struct BandwidthControl {
    let globalGate: RateGate
    let meteredCounter = MeteredCounter()
    let wallClock: WallClock
    /// The budget period ``meteredCounter`` counts for.
    var usagePeriod = ""
    var meteredVerdict: MeteredVerdict = .unknown
    var lastPublished: NetworkStatus?

    init(clock: any MonotonicClock, environment: [String: String]) {
        globalGate = RateGate(clock: clock)
        wallClock = WallClock(environment: environment, clock: clock)
    }
}

/// The engine's background watches, each running while there is something to watch.
struct EngineWatches {
    /// Windows' edges, budget periods, and the budget running out.
    var bandwidth: Task<Void, Never>?
    /// NetworkManager's metered verdict, while the mode is `auto`.
    var probe: Task<Void, Never>?
    /// Free space, while downloads wait for it.
    var disk: Task<Void, Never>?

    mutating func cancelAll() {
        for task in [bandwidth, probe, disk] { task?.cancel() }
        (bandwidth, probe, disk) = (nil, nil, nil)
    }
}

/// Where the engine is in its life: loaded (the state is read, nothing runs), running, or shut
/// down for good (the state file released).
enum EnginePhase: Equatable {
    case loaded
    case running
    case shutDown
}

/// UIs attached to the engine, and what happened while none was (see ``AwayReport``).
struct Attachments {
    var report: AwayReport?
    var count = 0
}

/// What every transfer of the engine shares: the HTTP clients, the connections open to each
/// server, the free space of the download directories and the journal.
struct TransferResources: Sendable {
    let pool: HTTPClientPool
    let servers: ServerConnections
    let volumes: DiskSpace.VolumeCache
    let journal: StateJournal
    let clock: any MonotonicClock
    /// The same clock as local time: cookie expiry, when a file finished.
    let wallClock: WallClock
}
