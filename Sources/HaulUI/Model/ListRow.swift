import FoundationEssentials
import HaulCore

/// What the list keeps of one download: what its row, its opened lines, the sorts, the filter and
/// the keys read. The details view asks the engine for the whole download (``Download``).
///
/// A list of 100,000 downloads keeps 100,000 of these, so what most downloads never have (a
/// notice, a limit of their own, a map of pieces…) is in one shared box, absent for most.
public struct ListRow: Sendable, Equatable, Identifiable {
    public let id: DownloadID
    public private(set) var displayName: String
    public private(set) var directory: String
    public private(set) var fileName: String?
    private var extras: Extras?
    public var receivedBytes: Int64
    public var totalBytes: Int64?
    public private(set) var state: DownloadState
    public private(set) var allowMetered: Bool
    public private(set) var resumable: Bool?

    /// The fields few downloads have, read only: a change makes a new box.
    private final class Extras: Sendable, Equatable {
        let notice: Notice?
        let lastError: FailureReason?
        let speedLimit: Int64?
        let connections: Int?
        let activeConnections: Int?
        let segments: [Segment]?
        /// Sources it may fetch from, when it has more than its own URL.
        let sources: Int?
        let torrent: TorrentFacts?

        init(_ d: Download) {
            notice = d.notice
            lastError = d.lastError
            speedLimit = d.speedLimit
            connections = d.connections
            activeConnections = d.activeConnections
            segments = d.segments
            sources = d.request.sources.isEmpty ? nil : 1 + d.request.sources.count { $0.isUsable }
            torrent = d.torrent
        }

        init(_ other: Extras?, notice: Notice?) {
            self.notice = notice
            lastError = other?.lastError
            speedLimit = other?.speedLimit
            connections = other?.connections
            activeConnections = other?.activeConnections
            segments = other?.segments
            sources = other?.sources
            torrent = other?.torrent
        }

        var isEmpty: Bool {
            notice == nil && lastError == nil && speedLimit == nil && connections == nil
                && activeConnections == nil && segments == nil && sources == nil && torrent == nil
        }

        static func == (a: Extras, b: Extras) -> Bool {
            a.notice == b.notice && a.lastError == b.lastError
                && a.speedLimit == b.speedLimit && a.connections == b.connections
                && a.activeConnections == b.activeConnections && a.segments == b.segments && a.sources == b.sources
                && a.torrent == b.torrent
        }
    }

    public init(_ d: Download) {
        id = d.id
        displayName = d.displayName
        directory = d.directory
        fileName = d.fileName
        receivedBytes = d.receivedBytes
        totalBytes = d.totalBytes
        state = d.state
        allowMetered = d.allowMetered
        resumable = d.resumable
        let extras = Extras(d)
        self.extras = extras.isEmpty ? nil : extras
    }

    public var notice: Notice? {
        get { extras?.notice }
        set {
            let changed = Extras(extras, notice: newValue)
            extras = changed.isEmpty ? nil : changed
        }
    }

    public var lastError: FailureReason? { extras?.lastError }
    public var diskShortfall: Int64? {
        guard case .paused(.diskFull(let shortfall)) = state else { return nil }
        return shortfall
    }
    /// Its own speed limit in bytes per second, if it has one.
    public var speedLimit: Int64? { extras?.speedLimit }
    /// Most connections it may use, if it has a number of its own.
    public var connections: Int? { extras?.connections }
    public var activeConnections: Int? { extras?.activeConnections }
    public var segments: [Segment]? { extras?.segments }
    /// How many sources it may fetch from, when it has mirrors.
    public var sources: Int? { extras?.sources }
    /// For a torrent: its swarm, uploads and whether it seeds.
    public var torrent: TorrentFacts? { extras?.torrent }

    public var pauseCause: PauseCause? { state.pauseCause }
    public var failureReason: FailureReason? { state.failureReason }
    public var reason: String? { state.reason }
    public var mayNeedNewLink: Bool { state.mayNeedNewLink }
    public var isHeld: Bool { state.isHeld }
    public func isWaitingToRetry(at now: Date) -> Bool { state.isWaitingToRetry(notice: notice, at: now) }
    /// Whether its transfer waits for the machine's network to come back.
    public var isWaitingForNetwork: Bool { state.isWaitingForNetwork(notice: notice) }

    /// The final path, once the name is known.
    public var path: String? { fileName.map { Download.path(of: $0, in: directory) } }
}
