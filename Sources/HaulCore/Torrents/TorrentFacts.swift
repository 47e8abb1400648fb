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
    /// True when the user resumed it by hand after it finished: it seeds until they pause it,
    /// past the seed ratio and time (as transmission does with a torrent started by hand).
    public var seedsUntilPaused: Bool

    public init(
        infoHash: String, fileCount: Int = 0, uploaded: Int64 = 0, seeding: Bool = false, seedingEnded: Bool = false,
        seedsUntilPaused: Bool = false
    ) {
        self.infoHash = infoHash
        self.fileCount = fileCount
        self.uploaded = uploaded
        self.seeding = seeding
        self.seedingEnded = seedingEnded
        self.seedsUntilPaused = seedsUntilPaused
    }

    private enum CodingKeys: String, CodingKey {
        case infoHash, fileCount, uploaded, peers, seeds, uploadRate, seeding, seedingEnded, seedsUntilPaused
    }

    /// A state written before `seedingEnded` or `seedsUntilPaused` existed reads them as false.
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
        seedsUntilPaused = try c.decodeIfPresent(Bool.self, forKey: .seedsUntilPaused) ?? false
    }

    /// `seedingEnded` and `seedsUntilPaused` are written only when true.
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
        if seedsUntilPaused { try c.encode(true, forKey: .seedsUntilPaused) }
    }

    /// Whether it holds numbers of a running swarm (peers, a rate, seeding).
    public var isLive: Bool { peers != nil || seeds != nil || uploadRate != nil || seeding }

    /// The facts without a running swarm: what a torrent that is not in a session has.
    public var atRest: TorrentFacts {
        TorrentFacts(
            infoHash: infoHash, fileCount: fileCount, uploaded: uploaded, seedingEnded: seedingEnded,
            seedsUntilPaused: seedsUntilPaused)
    }

    /// Whether a finished torrent of `size` bytes still owes seeding under `settings`: it seeds
    /// again when a daemon or the UI starts.
    public func owesSeeding(size: Int64?, under settings: TorrentSettings) -> Bool {
        guard !seedingEnded, let size, size > 0 else { return false }
        return seedsUntilPaused || !settings.seedingIsDone(uploaded: uploaded, downloaded: size, seconds: 0)
    }

    /// Whether seeding that has sent `uploaded` of `size` bytes over `seconds` is over.
    public func seedingIsDone(size: Int64, seconds: Int64, under settings: TorrentSettings) -> Bool {
        !seedsUntilPaused && settings.seedingIsDone(uploaded: uploaded, downloaded: size, seconds: seconds)
    }

    /// The facts once the user resumed the finished torrent by hand: it seeds again, until paused.
    public var resumedByHand: TorrentFacts {
        var facts = self
        facts.seedingEnded = false
        facts.seedsUntilPaused = true
        return facts
    }

    /// The facts once the user paused the finished torrent: no later run seeds it.
    public var pausedByHand: TorrentFacts {
        var facts = self
        facts.seedingEnded = true
        facts.seedsUntilPaused = false
        return facts
    }

    /// Uploaded over downloaded, for a torrent of `size` bytes.
    public func ratio(size: Int64?) -> Double {
        guard let size, size > 0 else { return 0 }
        return Double(uploaded) / Double(size)
    }
}
