import HaulCore
import HaulHTTP

/// What one HTTP run of a download works from: the download's request, read whole, and what the
/// run learns and changes as it goes (its name, size, map, validators, sources).
struct TransferJob: Sendable {
    let id: DownloadID
    /// Its place in the queue when the run started: a server's connections are shared in this order.
    let queueOrder: UInt64
    /// Distinguishes this run of the download from later ones; stale reports are ignored.
    let generation: UInt64
    /// The download's request as the run knows it: a served Metalink or a server's `Link` and
    /// `Digest` headers add sources, a name, a checksum and piece hashes to it.
    var request: DownloadRequest
    var fileName: String?
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
    /// Set once the `.part` went away under this run and the file was fetched again: a second
    /// time fails the download rather than fetching it over and over.
    var partVanished = false
    /// Which source the run asks while those before it do not answer.
    var fallback = SourceFallback()
    /// The download's own requests while `target` asks one of its other sources instead.
    var ownTarget: TransferTarget?

    /// The run of `start`'s download, which asks for its request's URL with its headers and
    /// proxy, resolved against the saved proxies and per-host settings.
    init(_ start: TransferStart, proxies: ProxySettings, hosts: HostSettings) {
        let download = start.download
        id = download.id
        queueOrder = download.queueOrder
        generation = start.generation
        request = download.request
        request.sources = DownloadSource.forNewRun(download.request.sources)
        fileName = download.fileName
        target = TransferTarget(
            url: download.url, headers: download.headers, etag: download.etag, lastModified: download.lastModified,
            proxy: download.request.proxy, proxies: proxies, hosts: hosts)
        totalBytes = download.totalBytes
        segments = download.segments
        sourceURL = download.finalURL
        connections = start.connections
        throttle = start.throttle
        linkUnchecked = download.linkUnchecked
    }

    var directory: String { request.directory }
    /// Other places the file is fetched from; connections go to them too.
    var mirrors: [DownloadSource] {
        get { request.sources }
        set { request.sources = newValue }
    }
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
    /// Whether the answer came as a stream of an HTTP/2 connection (see ``SharedHosts``).
    var multiplexed = false
}

enum TransferOutcome: Sendable {
    case finished(fileName: String, size: Int64)
    case failed(TransferFailure)
}
