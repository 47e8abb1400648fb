import CTorrent

/// What libtorrent tells of one torrent, as the engine's transfers read it.
enum TorrentEvent: Sendable {
    case status(TorrentStatus)
    /// A magnet's metadata arrived from the swarm: the name, the files and the size are known.
    case metadata
    /// Every wanted piece is on disk and passed its hash check.
    case finished
    case resumeData([UInt8])
    case resumeDataFailed(String)
    /// A piece failed its hash check and is fetched again.
    case hashFailed(piece: Int)
    /// A peer sent bad data too often and was cut off.
    case peerBanned(address: String)
    /// A file could not be written or read, or the torrent failed otherwise: in libtorrent's
    /// words; `diskFull` when a write found no room.
    case failed(String, diskFull: Bool)
    case trackerReplied(url: String, peers: Int)
    /// A tracker refused the announce in its own words (`refused`), or could not be asked.
    case trackerFailed(url: String, message: String, refused: Bool)
}

/// A torrent's numbers at one moment.
struct TorrentStatus: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        case checking, fetchingMetadata, downloading, finished, seeding
    }

    var phase: Phase
    var hasMetadata: Bool
    /// Bytes of the selected files, and how many of them are on disk and verified.
    var wanted: Int64
    var wantedDone: Int64
    /// The whole torrent's size (0 before its metadata).
    var total: Int64
    var downloadRate: Int64
    var uploadRate: Int64
    /// Over every session libtorrent's resume data remembers.
    var uploaded: Int64
    var downloaded: Int64
    var peers: Int
    var seeds: Int
    var seedingSeconds: Int64

    init(_ s: haul_bt_status) {
        switch s.state {
        case 1, 6: phase = .checking
        case 2: phase = .fetchingMetadata
        case 4: phase = .finished
        case 5: phase = .seeding
        default: phase = .downloading
        }
        hasMetadata = s.has_metadata != 0
        wanted = s.total_wanted
        wantedDone = s.total_wanted_done
        total = s.total
        downloadRate = s.download_rate
        uploadRate = s.upload_rate
        uploaded = s.uploaded
        downloaded = s.downloaded
        peers = Int(s.peers)
        seeds = Int(s.seeds)
        seedingSeconds = s.seeding_seconds
    }
}

extension TorrentEvent {
    /// The event a bridge event is, or nil for one haul does not use.
    init?(_ e: haul_bt_event) {
        let text = e.text.map { String(cString: $0) } ?? ""
        switch Int(e.kind) {
        case Int(HAUL_BT_STATUS): self = .status(TorrentStatus(e.status))
        case Int(HAUL_BT_METADATA): self = .metadata
        case Int(HAUL_BT_FINISHED): self = .finished
        case Int(HAUL_BT_RESUME_DATA):
            self = .resumeData(e.data.map { Array(UnsafeBufferPointer(start: $0, count: e.length)) } ?? [])
        case Int(HAUL_BT_RESUME_FAILED): self = .resumeDataFailed(text)
        case Int(HAUL_BT_HASH_FAILED): self = .hashFailed(piece: Int(e.number))
        case Int(HAUL_BT_PEER_BANNED): self = .peerBanned(address: text)
        case Int(HAUL_BT_ERROR): self = .failed(text, diskFull: e.number == 1)
        case Int(HAUL_BT_TRACKER_REPLY): self = .trackerReplied(url: text, peers: Int(e.number))
        case Int(HAUL_BT_TRACKER_ERROR):
            let parts = text.split(separator: "\n", maxSplits: 1).map(String.init)
            self = .trackerFailed(
                url: parts.first ?? "", message: parts.count > 1 ? parts[1] : "", refused: e.number == 1)
        default: return nil
        }
    }
}
