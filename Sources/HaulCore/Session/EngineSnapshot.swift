/// The downloads and the network status at one moment.
public struct EngineSnapshot: Sendable {
    public var downloads: DownloadList
    public var network: NetworkStatus
    /// The saved default of connections per download.
    public var connections: Int?
    /// The saved default cookies.txt file.
    public var cookieFile: String?
    /// The saved settings of the aria2-compatible RPC endpoint; nil while it is off.
    public var rpc: RPCSettings?
    /// How many downloads run at once.
    public var concurrency: Int?
    /// The saved hooks; nil when none are saved.
    public var hooks: HookSettings?
    /// The saved proxies; nil when none are saved.
    public var proxies: ProxySettings?
    /// The saved per-host settings; nil when none are saved.
    public var hosts: HostSettings?
    /// The saved BitTorrent settings; nil: the defaults.
    public var torrents: TorrentSettings?

    public init(
        downloads: DownloadList, network: NetworkStatus, connections: Int? = nil, cookieFile: String? = nil,
        rpc: RPCSettings? = nil, concurrency: Int? = nil, hooks: HookSettings? = nil, proxies: ProxySettings? = nil,
        hosts: HostSettings? = nil, torrents: TorrentSettings? = nil
    ) {
        self.hosts = hosts
        self.torrents = torrents
        self.hooks = hooks
        self.proxies = proxies
        self.concurrency = concurrency
        self.downloads = downloads
        self.network = network
        self.connections = connections
        self.cookieFile = cookieFile
        self.rpc = rpc
    }
}

/// The downloads of a snapshot: the engine's own array in-process, or the bytes that crossed a
/// socket, decoded as they are read. A UI that keeps only rows then never holds every download
/// whole (100,000 of them are ~50 MB).
public struct DownloadList: Sendable {
    private enum Storage: Sendable {
        case decoded([Download])
        /// The engine's own storage, shared rather than copied, and the newer byte counts of the
        /// downloads running (which the engine keeps apart so progress never copies a chunk).
        case chunked(ChunkedArray<Download>, progress: [DownloadID: Int64])
        case encoded(count: Int, each: @Sendable ((Download) -> Void) throws -> Void)
    }

    private let storage: Storage

    public init(_ downloads: [Download]) { storage = .decoded(downloads) }

    /// `downloads` as they are stored, each with its byte count from `progress` when it has one.
    public init(_ downloads: ChunkedArray<Download>, progress: [DownloadID: Int64] = [:]) {
        storage = .chunked(downloads, progress: progress)
    }

    /// Downloads `each` decodes one at a time, handing each to the function it is given.
    public init(count: Int, decodingEach each: @escaping @Sendable ((Download) -> Void) throws -> Void) {
        storage = .encoded(count: count, each: each)
    }

    /// How many there are.
    public var count: Int {
        switch storage {
        case .decoded(let downloads): downloads.count
        case .chunked(let downloads, _): downloads.count
        case .encoded(let count, _): count
        }
    }

    /// Every download, in list order (decoded on each call when they came over a socket).
    public func forEachDownload(_ body: (Download) -> Void) throws {
        switch storage {
        case .decoded(let downloads): for i in downloads.indices { body(downloads[i]) }
        case .chunked(let downloads, let progress):
            downloads.forEachElement { d in
                if !progress.isEmpty, let received = progress[d.id] {
                    var current = d
                    current.receivedBytes = received
                    body(current)
                } else {
                    body(d)
                }
            }
        case .encoded(_, let each): try each(body)
        }
    }

    /// The downloads whose state is one of `kinds`, in list order: how many there are, and those
    /// whose place among them is in `wanted` (each with its latest progress). In-process this
    /// is one pass that copies only the downloads it keeps: a page of 1,000 from 100,000.
    public func select(_ kinds: Set<DownloadState.Kind>, keeping wanted: Range<Int>) throws -> (
        count: Int, kept: [Download]
    ) {
        var count = 0
        var kept: [Download] = []
        guard case .chunked(let downloads, let progress) = storage else {
            try forEachDownload { d in
                guard kinds.contains(d.state.kind) else { return }
                if wanted.contains(count) { kept.append(d) }
                count += 1
            }
            return (count, kept)
        }
        var mask = 0
        for kind in kinds { mask |= Self.bit(kind) }
        for position in downloads.indices where mask & Self.bit(downloads[position].state.kind) != 0 {
            if wanted.contains(count) {
                var d = downloads[position]
                if let received = progress[d.id] { d.receivedBytes = received }
                kept.append(d)
            }
            count += 1
        }
        return (count, kept)
    }

    private static func bit(_ kind: DownloadState.Kind) -> Int {
        switch kind {
        case .waiting: 1
        case .downloading: 2
        case .paused: 4
        case .finished: 8
        case .failed: 16
        }
    }

    /// All of them as an array (decoded on each call when they came over a socket, and a copy of
    /// the engine's while any runs: read it once).
    public var all: [Download] {
        get throws {
            switch storage {
            case .decoded(let downloads): return downloads
            case .chunked, .encoded:
                var downloads: [Download] = []
                downloads.reserveCapacity(count)
                try forEachDownload { downloads.append($0) }
                return downloads
            }
        }
    }
}
