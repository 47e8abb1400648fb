import HaulCore

/// The whole state file: a version, settings and the downloads in list order.
public struct StateDocument: Codable, Sendable, Equatable {
    /// The schema this build writes. Older versions are read; newer ones are refused, not overwritten.
    public static let currentVersion = 1

    public var version: Int
    public var settings: Settings
    /// In chunks, so a save can encode them while the engine goes on changing single downloads.
    public var downloads: ChunkedArray<Download>
    /// What a daemon did while no UI was attached, kept until a UI shows it.
    public var away: AwayReport?
    /// The journal's count when this was written: the journal's records numbered up to it are
    /// in this document already, so a load applies only the later ones (see ``StateJournal``).
    public var journalMark: Int?

    public init(settings: Settings = Settings(), downloads: ChunkedArray<Download>, away: AwayReport? = nil) {
        self.version = Self.currentVersion
        self.settings = settings
        self.downloads = downloads
        self.away = away
    }

    public init(settings: Settings = Settings(), downloads: [Download] = [], away: AwayReport? = nil) {
        self.init(settings: settings, downloads: ChunkedArray(downloads), away: away)
    }

    public struct Settings: Codable, Sendable, Equatable {
        /// `count` within ``connectionRange``.
        public static func clampedConnections(_ count: Int) -> Int {
            min(max(count, connectionRange.lowerBound), connectionRange.upperBound)
        }

        /// How many transfers run at once.
        public var concurrency: Int
        public var meteredMode: MeteredMode
        /// Bytes per second for allowed downloads while metered; nil for no cap.
        public var meteredLimit: Int64?
        /// Most connections per download, for downloads without a number of their own.
        public var connections: Int
        /// The global speed limit; nil for none.
        public var speedLimit: SpeedLimit?
        /// The most bytes to receive while metered per day or month; nil for none.
        public var meteredBudget: DataBudget?
        /// The bytes received while metered in the last period counted.
        public var meteredUsage: BudgetUsage?
        /// The cookies.txt file of downloads that have none of their own; nil for none.
        public var cookieFile: String?
        /// The aria2-compatible RPC endpoint; nil while it is off.
        public var rpc: RPCSettings?
        /// The commands run on a finished or failed download and when the queue drains; nil for none.
        public var hooks: HookSettings?
        /// The saved proxies (global and per host); nil for none.
        public var proxies: ProxySettings?
        /// Per-host connections, speed limits and headers; nil for none.
        public var hosts: HostSettings?
        /// How haul takes part in BitTorrent swarms; nil: the defaults.
        public var torrents: TorrentSettings?

        /// What a download gets without `--connections`.
        public static let defaultConnections = Download.defaultConnections
        /// The most connections one download may have.
        public static let connectionRange = Download.connectionRange

        public init(
            concurrency: Int = 3, meteredMode: MeteredMode = .off, meteredLimit: Int64? = nil,
            connections: Int = defaultConnections
        ) {
            self.concurrency = concurrency
            self.connections = connections
            self.meteredMode = meteredMode
            self.meteredLimit = meteredLimit
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            concurrency = max(1, (try? c.decodeIfPresent(Int.self, forKey: .concurrency)) ?? 3)
            meteredMode = (try? c.decodeIfPresent(MeteredMode.self, forKey: .meteredMode)) ?? .off
            meteredLimit = (try? c.decodeIfPresent(Int64.self, forKey: .meteredLimit)) ?? nil
            connections = Self.clampedConnections(
                (try? c.decodeIfPresent(Int.self, forKey: .connections)) ?? Self.defaultConnections)
            speedLimit = try? c.decodeIfPresent(SpeedLimit.self, forKey: .speedLimit)
            meteredBudget = try? c.decodeIfPresent(DataBudget.self, forKey: .meteredBudget)
            meteredUsage = try? c.decodeIfPresent(BudgetUsage.self, forKey: .meteredUsage)
            cookieFile = try? c.decodeIfPresent(String.self, forKey: .cookieFile)
            rpc = try? c.decodeIfPresent(RPCSettings.self, forKey: .rpc)
            hooks = try? c.decodeIfPresent(HookSettings.self, forKey: .hooks)
            proxies = try? c.decodeIfPresent(ProxySettings.self, forKey: .proxies)
            hosts = try? c.decodeIfPresent(HostSettings.self, forKey: .hosts)
            torrents = try? c.decodeIfPresent(TorrentSettings.self, forKey: .torrents)
        }
    }
}
