/// The engine as a UI or a command sees it: the engine itself in-process, or a connection
/// to the haul process that owns the state file (`RemoteEngine` in HaulRemote).
public protocol EngineSession: Sendable {
    /// Downloads and network status now, plus every event from here on. A UI also takes
    /// the away report.
    func attach(ui: Bool) async throws -> EngineAttachment
    func snapshot() async throws -> EngineSnapshot
    /// The whole download `id`, or nil when there is none by that id.
    func download(_ id: DownloadID) async throws -> Download?
    @discardableResult
    func perform(_ command: EngineCommand) async throws -> [DownloadID]
    /// Makes the changes so far durable in the state file.
    func save() async throws
    /// The network status with the metered probe asked afresh.
    func refreshedNetworkStatus() async throws -> NetworkStatus
    /// Returns when nothing is waiting or downloading.
    func waitUntilIdle() async throws
    /// A running or seeding torrent's files, peers, trackers and pieces; nil for any other download.
    func torrentDetails(_ id: DownloadID) async throws -> TorrentDetails?
    /// A UI that attached with `ui: true` has left: while none is attached, a daemon records
    /// outcomes for the next one. A session that is itself a connection detaches by closing.
    func detachUI() async
}

extension EngineSession {
    /// A session that cannot see an engine's torrents (aria2c over RPC) shows none.
    public func torrentDetails(_ id: DownloadID) async throws -> TorrentDetails? { nil }
}

public struct EngineAttachment: Sendable {
    public var snapshot: EngineSnapshot
    public var away: AwayReport?
    public var events: EngineEvents

    public init(snapshot: EngineSnapshot, away: AwayReport?, events: EngineEvents) {
        self.snapshot = snapshot
        self.away = away
        self.events = events
    }
}
