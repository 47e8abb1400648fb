/// How haul takes part in BitTorrent swarms, saved in the state file (`haul torrents`). The
/// defaults are aria2's: trackers, DHT and peer exchange on; local discovery and port mapping off
/// (one multicasts to the local network, the other asks the gateway to open a port).
public struct TorrentSettings: Sendable, Equatable, Codable {
    public var dht = true
    public var pex = true
    public var lsd = false
    public var portMapping = false
    /// The port peers connect to (the next free one above it when taken).
    public var port = 6881
    /// The address to listen on; nil: every address.
    public var interface: String?
    /// Seeding stops when uploaded / downloaded reaches this; 0 seeds not at all.
    public var seedRatio = 1.0
    /// Seeding stops after this many minutes, if sooner than the ratio (0 seeds not at all, as in
    /// aria2); nil: no time limit.
    public var seedMinutes: Int?
    /// Bytes per second uploaded over every torrent; nil: no limit.
    public var uploadLimit: Int64?

    public init() {}

    /// libtorrent's `listen_interfaces` for these settings.
    public var listenInterfaces: String {
        guard let interface else { return "0.0.0.0:\(port),[::]:\(port)" }
        return interface.contains(":") ? "[\(interface)]:\(port)" : "\(interface):\(port)"
    }

    /// Whether a torrent that uploaded `uploaded` of `downloaded` bytes over `seconds` of seeding
    /// has seeded enough.
    public func seedingIsDone(uploaded: Int64, downloaded: Int64, seconds: Int64) -> Bool {
        if seedRatio <= 0 { return true }
        if let seedMinutes, seconds >= Int64(seedMinutes) * 60 { return true }
        guard downloaded > 0 else { return false }
        return Double(uploaded) / Double(downloaded) >= seedRatio
    }

    /// The settings that hold for a torrent with its own seed goal: its ratio and time over the
    /// saved ones.
    public func seeding(toward goal: SeedGoal?) -> TorrentSettings {
        guard let goal else { return self }
        var settings = self
        if let ratio = goal.ratio { settings.seedRatio = ratio }
        if let minutes = goal.minutes { settings.seedMinutes = minutes }
        return settings
    }

    /// Whether a finished torrent seeds at all.
    public var seeds: Bool { seedRatio > 0 && seedMinutes != 0 }

    private enum CodingKeys: String, CodingKey {
        case dht, pex, lsd, portMapping, port, interface, seedRatio, seedMinutes, uploadLimit
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        dht = try c.decodeIfPresent(Bool.self, forKey: .dht) ?? true
        pex = try c.decodeIfPresent(Bool.self, forKey: .pex) ?? true
        lsd = try c.decodeIfPresent(Bool.self, forKey: .lsd) ?? false
        portMapping = try c.decodeIfPresent(Bool.self, forKey: .portMapping) ?? false
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? 6881
        interface = try c.decodeIfPresent(String.self, forKey: .interface)
        seedRatio = try c.decodeIfPresent(Double.self, forKey: .seedRatio) ?? 1.0
        seedMinutes = try c.decodeIfPresent(Int.self, forKey: .seedMinutes)
        uploadLimit = try c.decodeIfPresent(Int64.self, forKey: .uploadLimit)
    }
}
