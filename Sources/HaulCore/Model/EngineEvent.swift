/// A progress sample of one running download.
public struct ProgressSample: Codable, Sendable, Equatable {
    public var id: DownloadID
    public var receivedBytes: Int64
    public var totalBytes: Int64?
    /// Smoothed bytes per second.
    public var bytesPerSecond: Double
    /// Seconds left at the smoothed speed; nil when unknown.
    public var etaSeconds: Double?
    /// Connections writing now, for a download that may use several; nil for one.
    public var connections: Int?
    /// Where each piece has got to and how fast, once a download is fetched in several.
    public var segments: [LiveSegment]?

    public init(
        id: DownloadID, receivedBytes: Int64, totalBytes: Int64?, bytesPerSecond: Double, etaSeconds: Double?,
        connections: Int? = nil, segments: [LiveSegment]? = nil
    ) {
        self.connections = connections
        self.segments = segments
        self.id = id
        self.receivedBytes = receivedBytes
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.etaSeconds = etaSeconds
    }
}

/// Something that happened in the engine. Codable so it can cross a socket.
public enum EngineEvent: Codable, Sendable, Equatable {
    case added(Download)
    /// Anything but progress changed (state, name, validators, reason...): the full new value.
    case updated(Download)
    case progress(ProgressSample)
    case removed(DownloadID)
    /// Several downloads went at once (`rm --all`): one event, so that a list of 100,000 is
    /// updated in one pass rather than 100,000.
    case removedMany([DownloadID])
    /// Something worth showing: a retry coming, a start from the first byte.
    case notice(DownloadID, Notice)
    /// The metered-network mode, the probe's verdict, the cap, the budget's use or the
    /// speed limit changed.
    case network(NetworkStatus)
    /// A download moved to `position` in the list (the others keep their order).
    case moved(DownloadID, to: Int)

    /// The download this event is about; nil for engine-wide events.
    public var downloadID: DownloadID? {
        switch self {
        case .added(let d), .updated(let d): return d.id
        case .progress(let p): return p.id
        case .removed(let id), .notice(let id, _), .moved(let id, _): return id
        case .network, .removedMany: return nil
        }
    }
}
