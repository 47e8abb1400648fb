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
    /// True once its seeding is over for good: the seed ratio or time was reached, or the user
    /// paused it. Until then a finished torrent seeds again when a daemon or the UI starts.
    public var seedingEnded: Bool

    public init(
        infoHash: String, fileCount: Int = 0, uploaded: Int64 = 0, seeding: Bool = false, seedingEnded: Bool = false
    ) {
        self.infoHash = infoHash
        self.fileCount = fileCount
        self.uploaded = uploaded
        self.seeding = seeding
        self.seedingEnded = seedingEnded
    }

    private enum CodingKeys: String, CodingKey {
        case infoHash, fileCount, uploaded, peers, seeds, uploadRate, seeding, seedingEnded
    }

    /// A state written before `seedingEnded` existed reads as not ended.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        infoHash = try c.decode(String.self, forKey: .infoHash)
        fileCount = try c.decode(Int.self, forKey: .fileCount)
        uploaded = try c.decode(Int64.self, forKey: .uploaded)
        peers = try c.decodeIfPresent(Int.self, forKey: .peers)
        seeds = try c.decodeIfPresent(Int.self, forKey: .seeds)
        uploadRate = try c.decodeIfPresent(Int64.self, forKey: .uploadRate)
        seeding = try c.decode(Bool.self, forKey: .seeding)
        seedingEnded = try c.decodeIfPresent(Bool.self, forKey: .seedingEnded) ?? false
    }

    /// `seedingEnded` is written only when true.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(infoHash, forKey: .infoHash)
        try c.encode(fileCount, forKey: .fileCount)
        try c.encode(uploaded, forKey: .uploaded)
        try c.encodeIfPresent(peers, forKey: .peers)
        try c.encodeIfPresent(seeds, forKey: .seeds)
        try c.encodeIfPresent(uploadRate, forKey: .uploadRate)
        try c.encode(seeding, forKey: .seeding)
        if seedingEnded { try c.encode(true, forKey: .seedingEnded) }
    }

    /// Whether it holds numbers of a running swarm (peers, a rate, seeding).
    public var isLive: Bool { peers != nil || seeds != nil || uploadRate != nil || seeding }

    /// The facts without a running swarm: what a torrent that is not in a session has.
    public var atRest: TorrentFacts {
        TorrentFacts(infoHash: infoHash, fileCount: fileCount, uploaded: uploaded, seedingEnded: seedingEnded)
    }

    /// Whether a finished torrent of `size` bytes still owes seeding under `settings`: it seeds
    /// again when a daemon or the UI starts.
    public func owesSeeding(size: Int64?, under settings: TorrentSettings) -> Bool {
        guard !seedingEnded, let size, size > 0 else { return false }
        return !settings.seedingIsDone(uploaded: uploaded, downloaded: size, seconds: 0)
    }

    /// Uploaded over downloaded, for a torrent of `size` bytes.
    public func ratio(size: Int64?) -> Double {
        guard let size, size > 0 else { return 0 }
        return Double(uploaded) / Double(size)
    }
}
