import HaulCore

/// The engine's one way of running a download, whatever carries its bytes. The engine starts a
/// transfer on a task and knows nothing of its protocol: the queue, the speed gates, the metered
/// budget, the journal and the state file are the engine's, and a transfer only draws on them
/// through what ``TransferStart`` hands it and tells the engine what happens through its
/// ``TransferReports``.
///
/// A transfer runs until its download finished or failed for good (``TransferReports/ended(_:)``)
/// or the task running it is cancelled: a pause, a cancel, a shutdown. What it wrote before a
/// cancellation stays, and it writes nothing after `run()` returns.
///
/// HTTP and HTTPS (one connection or several, mirrors, Metalink) are ``HTTPTransfer``; torrents
/// and magnet links are ``TorrentTransfer``.
protocol Transfer: Sendable {
    func run() async
}

/// What the engine gives every transfer it starts, whatever its protocol.
struct TransferStart: Sendable {
    /// The download as it was when this run started.
    let download: Download
    /// Distinguishes this run of the download from later ones; stale reports are ignored.
    let generation: UInt64
    /// The most connections (or peers) it may use; the engine may change it while it runs.
    let connections: ConnectionLimit
    /// The speed limits and the metered budget every read draws from.
    let throttle: Throttle
    /// What every transfer shares: clients, connections per server, free space, the journal, the clock.
    let resources: TransferResources
    /// How it tells the engine what happens.
    let reports: RunReports
}

/// The protocols haul fetches, and which one a download is fetched with.
enum TransferKind: Sendable, Equatable {
    case http
    /// A BitTorrent swarm (a magnet link; a `.torrent` file is kept as its magnet link).
    case torrent

    /// The kind that fetches `download`: ``AddPath`` lets in http and https URLs and magnet links.
    init(_ download: Download) {
        self = download.isTorrent ? .torrent : .http
    }
}
