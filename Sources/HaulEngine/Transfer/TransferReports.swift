import HaulCore

/// How a running transfer tells the engine what happens to its download, whatever its protocol:
/// the one path for its news. The engine side is ``RunReports``; it names the run, so the report
/// of a run that was paused, cancelled or replaced changes nothing.
protocol TransferReports: Sendable {
    /// Picks a free name based on `suggestion` (the transfer journals the claim before it
    /// creates the `.part`); nil when the run is stale.
    func claimName(_ suggestion: String, total: Int64?, keepingPart: String?) async -> String?
    /// Bytes written so far, with its connections and pieces for a download in pieces.
    func progress(_ progress: TransferProgress) async
    /// A map of a download in pieces was made durable: the state file stores it from now on.
    func segmentsSaved(_ segments: [Segment], name: String) async
    /// Something the user should know while the transfer goes on; nil: what was said no longer
    /// holds.
    func notice(_ notice: Notice?) async
    /// The download's sources as they stand (found, dropped, bytes served), and the checksum and
    /// piece hashes a source gave when the user gave none.
    func sourcesChanged(_ mirrors: [DownloadSource], checksum: Checksum?, pieceHashes: PieceHashes?) async
    /// Counts a transient failure; returns the wait before the next attempt, nil to give up.
    func willRetry(_ failure: TransferFailure, madeProgress: Bool) async -> Duration?
    func ended(_ outcome: TransferOutcome) async
}

/// What only a transfer over HTTP tells: what a response head said, a new link's check, a file
/// started over, a Metalink followed.
protocol HTTPTransferReports: TransferReports {
    /// The response is good and its body is about to be written: the file's name (claimed now
    /// when the download has none yet); nil when the run is stale.
    func began(_ info: ResponseInfo) async -> String?
    /// The `.part` was emptied to fetch the file from its first byte; `why` is told to the user.
    func startedOver(_ why: StartOverReason?) async
    /// A new link's first answer was compared with the file on disk.
    func checkedLink(etag: String?, lastModified: String?) async
    /// The download's URL served a Metalink document: the download becomes its first file (from
    /// `url`), the other files are added after it. Returns the folder the first file goes in (the
    /// document's folders for it, below the download's); nil when the run is stale.
    func followedMetalink(_ metalink: Metalink, url: String) async -> String?
    /// The download's URL served a torrent file: the download becomes that torrent (its file kept
    /// beside the state) and starts again as one. False when the run is stale or it cannot be kept.
    func followedTorrent(_ metainfo: [UInt8]) async -> Bool
}

/// How far a transfer has got.
struct TransferProgress: Sendable, Equatable {
    /// Bytes on disk, over every connection.
    var received: Int64
    /// For a download fetched in pieces: how many connections write now, and each piece.
    var connections: Int?
    var segments: [LiveSegment]?
}

/// The reports of one run of one download, to the engine.
struct RunReports: HTTPTransferReports {
    let engine: Engine
    let id: DownloadID
    let generation: UInt64

    func claimName(_ suggestion: String, total: Int64?, keepingPart: String?) async -> String? {
        await engine.transferClaimName(id, generation, suggestion, total: total, keepingPart: keepingPart)
    }

    func began(_ info: ResponseInfo) async -> String? { await engine.transferBegan(id, generation, info) }

    func progress(_ progress: TransferProgress) async { await engine.transferProgress(id, generation, progress) }

    func segmentsSaved(_ segments: [Segment], name: String) async {
        await engine.transferSegmentsSaved(id, generation, name: name, segments)
    }

    func startedOver(_ why: StartOverReason?) async { await engine.transferStartedOver(id, generation, why) }

    func checkedLink(etag: String?, lastModified: String?) async {
        await engine.transferCheckedLink(id, generation, etag: etag, lastModified: lastModified)
    }

    func notice(_ notice: Notice?) async { await engine.transferNotice(id, generation, notice) }

    func followedMetalink(_ metalink: Metalink, url: String) async -> String? {
        await engine.transferFollowedMetalink(id, generation, metalink, url: url)
    }

    func followedTorrent(_ metainfo: [UInt8]) async -> Bool {
        await engine.transferFollowedTorrent(id, generation, metainfo)
    }

    func sourcesChanged(_ mirrors: [DownloadSource], checksum: Checksum?, pieceHashes: PieceHashes?) async {
        await engine.transferSourcesChanged(id, generation, mirrors, checksum: checksum, pieceHashes: pieceHashes)
    }

    func willRetry(_ failure: TransferFailure, madeProgress: Bool) async -> Duration? {
        await engine.transferWillRetry(id, generation, failure, madeProgress: madeProgress)
    }

    func ended(_ outcome: TransferOutcome) async { await engine.transferEnded(id, generation, outcome) }

    /// A torrent's size (once its metadata is known), swarm and uploads.
    func torrentChanged(total: Int64?, facts: TorrentFacts) async {
        await engine.transferTorrentChanged(id, generation, total: total, facts: facts)
    }

    /// A finished torrent seeds (or, without a watch, stopped): not tied to the run, which has ended.
    func seeding(_ facts: TorrentFacts, watch: SeedingWatch?) async {
        await engine.torrentSeeding(id, facts, watch: watch)
    }
}
