import HaulCore
import HaulHTTP

/// What one HTTP run of a download works from: the download as it was when the run started, and
/// what the run learns and changes as it goes (its name, size, map, validators, sources).
struct TransferJob: Sendable {
    /// The download as it was when this run started.
    let download: Download
    /// Distinguishes this run of the download from later ones; stale reports are ignored.
    let generation: UInt64
    var requestedName: String?
    var fileName: String?
    var checksum: Checksum?
    /// What the requests ask for; its validators follow the responses.
    var target: TransferTarget
    /// The file's size, when known from an earlier run.
    var totalBytes: Int64?
    /// The map of a segmented download on disk, to resume every piece where it stopped.
    var segments: [Segment]?
    /// Where the last response came from (after redirects).
    var sourceURL: String?
    /// The most connections it may use (the engine may change it while it runs).
    let connections: ConnectionLimit
    /// The speed limits and budget its reads draw from.
    let throttle: Throttle
    /// The download's link is new and not yet known to serve the file on disk.
    var linkUnchecked: Bool
    /// Set once this run must stay on one connection (the file changed under several).
    var oneConnection = false
    /// Other places the file is fetched from; connections go to them too.
    var mirrors: [DownloadSource] = []
    var pieceHashes: PieceHashes?

    var id: DownloadID { download.id }
    /// Its place in the queue when the run started: a server's connections are shared in this order.
    var queueOrder: UInt64 { download.queueOrder }
    var directory: String { download.directory }
    /// `--no-mirrors`: `Link` and `Digest` headers are not used.
    var ignoresMirrorHeaders: Bool { download.ignoresMirrorHeaders }
}

/// What the engine learns from a response head that will be written.
struct ResponseInfo: Sendable {
    enum Name: Sendable {
        /// The download's file already has this name.
        case known(String)
        /// The engine claims a free name based on this one.
        case suggested(String)
    }

    var name: Name
    /// A suggested name the transfer found no file by on disk; its `.part` the transfer creates
    /// exclusively, so the engine looks up neither.
    var freeOnDisk: String? = nil
    var receivedBytes: Int64
    var totalBytes: Int64?
    var etag: String?
    var lastModified: String?
    var resumable: Bool?
    var finalURL: String
    var startOver: StartOverReason?
}

enum TransferOutcome: Sendable {
    case finished(fileName: String, size: Int64)
    case failed(TransferFailure)
}
