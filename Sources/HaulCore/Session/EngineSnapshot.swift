/// The downloads and the network status at one moment.
public struct EngineSnapshot: Sendable {
    public var downloads: DownloadList
    public var network: NetworkStatus
    /// The saved default of connections per download.
    public var connections: Int?
    /// The saved default cookies.txt file.
    public var cookieFile: String?

    public init(
        downloads: DownloadList, network: NetworkStatus, connections: Int? = nil, cookieFile: String? = nil
    ) {
        self.downloads = downloads
        self.network = network
        self.connections = connections
        self.cookieFile = cookieFile
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
            for i in downloads.indices {
                if let received = progress[downloads[i].id] {
                    var current = downloads[i]
                    current.receivedBytes = received
                    body(current)
                } else {
                    body(downloads[i])
                }
            }
        case .encoded(_, let each): try each(body)
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
