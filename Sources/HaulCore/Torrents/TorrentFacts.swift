/// What a download that is a torrent has beyond a file's: its info hash, its swarm and what it
/// gave back. Kept with the download (out of line: most downloads are not torrents).
public struct TorrentFacts: Sendable, Equatable, Codable {
    /// The v1 info hash in hex (the v2 one for a v2-only torrent): the key of its files in the
    /// state folder and what aria2's `infoHash` shows.
    public var infoHash: String
    /// Files in the torrent; 0 until its metadata is known.
    public var fileCount: Int
    /// Bytes sent to peers, over every run.
    public var uploaded: Int64
    /// Peers connected, how many of them have the whole torrent; nil while not running.
    public var peers: Int?
    public var seeds: Int?
    /// Bytes per second sent now; nil while not running.
    public var uploadRate: Int64?
    /// True from completion while it keeps seeding.
    public var seeding: Bool

    public init(infoHash: String, fileCount: Int = 0, uploaded: Int64 = 0, seeding: Bool = false) {
        self.infoHash = infoHash
        self.fileCount = fileCount
        self.uploaded = uploaded
        self.seeding = seeding
    }

    /// Whether it holds numbers of a running swarm (peers, a rate, seeding).
    public var isLive: Bool { peers != nil || seeds != nil || uploadRate != nil || seeding }

    /// The facts without a running swarm: what a torrent that is not in a session has.
    public var atRest: TorrentFacts {
        TorrentFacts(infoHash: infoHash, fileCount: fileCount, uploaded: uploaded)
    }

    /// Uploaded over downloaded, for a torrent of `size` bytes.
    public func ratio(size: Int64?) -> Double {
        guard let size, size > 0 else { return 0 }
        return Double(uploaded) / Double(size)
    }
}
