import CTorrent
import HaulCore

/// A running torrent's files, peers, trackers and pieces at one moment, as the details box, `haul
/// ls --json` and aria2's `getFiles`/`getPeers` show them. Names and client strings come from the
/// swarm: they are made safe where they are shown.
public struct TorrentDetails: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Inside the download folder, as libtorrent made it safe (no `..`, no absolute path).
        public var path: String
        public var size: Int64
        public var done: Int64
        public var selected: Bool
    }

    public struct Peer: Sendable, Equatable {
        public var address: String
        public var client: String
        public var downloadRate: Int64
        public var uploadRate: Int64
        /// 0…1 of the torrent the peer has.
        public var progress: Double
        public var isSeed: Bool
    }

    public struct Tracker: Sendable, Equatable {
        public var url: String
        public var lastAnswer: String?
        public var working: Bool
    }

    public var files: [File]
    public var peers: [Peer]
    public var trackers: [Tracker]
    /// One bit per piece, most significant first.
    public var pieces: [UInt8]
    public var pieceCount: Int

    public init(
        files: [File] = [], peers: [Peer] = [], trackers: [Tracker] = [], pieces: [UInt8] = [], pieceCount: Int = 0
    ) {
        self.files = files
        self.peers = peers
        self.trackers = trackers
        self.pieces = pieces
        self.pieceCount = pieceCount
    }

    init(session: OpaquePointer, number: UInt64) {
        var files: UnsafeMutablePointer<haul_bt_file>?
        let fileCount = Int(haul_bt_files(session, number, &files))
        self.files = (0..<max(fileCount, 0)).map { i in
            let f = files![i]
            return File(
                path: f.path.map { String(cString: $0) } ?? "", size: f.size, done: f.done, selected: f.priority > 0)
        }
        if let files { haul_bt_files_free(files, Int32(max(fileCount, 0))) }
        var peers: UnsafeMutablePointer<haul_bt_peer>?
        let peerCount = Int(haul_bt_peers(session, number, &peers))
        self.peers = (0..<max(peerCount, 0)).map { i in
            var p = peers![i]
            let address = withUnsafeBytes(of: &p.address) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Peer(
                address: address, client: p.client.map { String(cString: $0) } ?? "", downloadRate: p.download_rate,
                uploadRate: p.upload_rate, progress: Double(p.progress_ppm) / 1_000_000, isSeed: p.seed != 0)
        }
        if let peers { haul_bt_peers_free(peers, Int32(max(peerCount, 0))) }
        var trackers: UnsafeMutablePointer<haul_bt_tracker>?
        let trackerCount = Int(haul_bt_trackers(session, number, &trackers))
        self.trackers = (0..<max(trackerCount, 0)).map { i in
            let t = trackers![i]
            return Tracker(
                url: t.url.map { String(cString: $0) } ?? "", lastAnswer: t.message.map { String(cString: $0) },
                working: t.working != 0)
        }
        if let trackers { haul_bt_trackers_free(trackers, Int32(max(trackerCount, 0))) }
        var bits: UnsafeMutablePointer<UInt8>?
        let pieceCount = Int(haul_bt_pieces(session, number, &bits))
        self.pieceCount = max(pieceCount, 0)
        self.pieces = bits.map { Array(UnsafeBufferPointer(start: $0, count: pieceCount / 8 + 1)) } ?? []
        haul_bt_free(bits)
    }
}
