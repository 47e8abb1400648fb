/// A running torrent's files, peers, trackers and pieces at one moment, as the details box, `haul
/// ls --json` and aria2's `getFiles`/`getPeers` show them. Names and client strings come from the
/// swarm: they are made safe where they are shown.
public struct TorrentDetails: Sendable, Equatable, Codable {
    public struct File: Sendable, Equatable, Codable {
        /// Inside the download folder, as libtorrent made it safe (no `..`, no absolute path).
        public var path: String
        public var size: Int64
        public var done: Int64
        public var selected: Bool

        public init(path: String, size: Int64, done: Int64, selected: Bool) {
            self.path = path
            self.size = size
            self.done = done
            self.selected = selected
        }
    }

    public struct Peer: Sendable, Equatable, Codable {
        public var address: String
        public var client: String
        public var downloadRate: Int64
        public var uploadRate: Int64
        /// 0…1 of the torrent the peer has.
        public var progress: Double
        public var isSeed: Bool

        public init(
            address: String, client: String, downloadRate: Int64, uploadRate: Int64, progress: Double, isSeed: Bool
        ) {
            self.address = address
            self.client = client
            self.downloadRate = downloadRate
            self.uploadRate = uploadRate
            self.progress = progress
            self.isSeed = isSeed
        }
    }

    public struct Tracker: Sendable, Equatable, Codable {
        public var url: String
        public var lastAnswer: String?
        public var working: Bool

        public init(url: String, lastAnswer: String?, working: Bool) {
            self.url = url
            self.lastAnswer = lastAnswer
            self.working = working
        }
    }

    public var files: [File]
    public var peers: [Peer]
    public var trackers: [Tracker]
    /// One bit per piece, most significant first.
    public var pieces: [UInt8]
    public var pieceCount: Int
    /// The ratio and time that end its seeding (its own over the saved settings); nil where the
    /// engine does not say (aria2 over RPC).
    public var seedingGoal: SeedGoal?

    public init(
        files: [File] = [], peers: [Peer] = [], trackers: [Tracker] = [], pieces: [UInt8] = [], pieceCount: Int = 0
    ) {
        self.files = files
        self.peers = peers
        self.trackers = trackers
        self.pieces = pieces
        self.pieceCount = pieceCount
    }
}
