import FoundationEssentials
import HaulCore

/// What a client asks of the haul process that owns the state file, over its Unix socket.
public enum ClientRequest: Codable, Sendable, Equatable {
    /// Downloads and network status now, then every event from here on. A UI (`ui: true`)
    /// also takes the away report, and while one is attached nothing more is recorded in it.
    case attach(ui: Bool)
    /// Downloads and network status now.
    case snapshot
    /// One whole download (the UI's details).
    case download(DownloadID)
    case perform(EngineCommand)
    /// Writes the state file now, so a command's change is on disk when the command returns.
    case save
    /// The network status with the metered probe asked afresh.
    case refreshNetwork
    /// Answers when nothing is waiting or downloading (for `haul run` against a daemon).
    case waitUntilIdle
    /// Asks a daemon to stop (its downloads resume from their `.part` files later).
    case shutdown
    /// A torrent's files, peers, trackers and pieces (the UI's details).
    case torrentDetails(DownloadID)
}

/// One request with the number its reply will carry.
public struct ClientMessage: Codable, Sendable, Equatable {
    public var id: UInt64
    public var request: ClientRequest

    public init(id: UInt64, request: ClientRequest) {
        self.id = id
        self.request = request
    }
}

/// An ``EngineSnapshot`` as it crosses the socket. The downloads are not inside the JSON
/// message: they follow it as a line of their own, the list in the state file's JSON (written
/// and read in one pass by HaulStore's `DownloadListJSON`; through `JSONEncoder` and
/// `JSONDecoder` 100,000 downloads took seconds). ``Wire/encode(_:)-(ServerMessage)`` appends
/// that line and ``ServerMessageReader`` joins it back.
public struct WireSnapshot: Codable, Sendable, Equatable {
    public var network: NetworkStatus
    /// The downloads line, without its newline. It must hold no newline byte (JSON written
    /// without whitespace, control characters escaped).
    public var downloads: [UInt8]
    /// How many downloads the line holds (the reader makes room for them at once).
    public var count: Int
    /// How long the line is, in bytes (the reader makes room for it at once).
    public var length: Int
    public var connections: Int?
    public var cookieFile: String?
    public var rpc: RPCSettings?
    public var concurrency: Int?
    public var hooks: HookSettings?
    public var proxies: ProxySettings?
    public var hosts: HostSettings?
    public var torrents: TorrentSettings?

    public init(
        downloads: [UInt8], count: Int, network: NetworkStatus, connections: Int? = nil, cookieFile: String? = nil,
        rpc: RPCSettings? = nil, concurrency: Int? = nil, hooks: HookSettings? = nil, proxies: ProxySettings? = nil,
        hosts: HostSettings? = nil, torrents: TorrentSettings? = nil
    ) {
        self.hosts = hosts
        self.torrents = torrents
        self.hooks = hooks
        self.proxies = proxies
        self.concurrency = concurrency
        self.downloads = downloads
        self.count = count
        length = downloads.count
        self.network = network
        self.connections = connections
        self.cookieFile = cookieFile
        self.rpc = rpc
    }

    private enum CodingKeys: String, CodingKey {
        case network, count, length, connections, cookieFile, rpc, concurrency, hooks, proxies, hosts, torrents
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        network = try container.decode(NetworkStatus.self, forKey: .network)
        count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 0
        length = try container.decodeIfPresent(Int.self, forKey: .length) ?? 0
        connections = try container.decodeIfPresent(Int.self, forKey: .connections)
        cookieFile = try container.decodeIfPresent(String.self, forKey: .cookieFile)
        rpc = try container.decodeIfPresent(RPCSettings.self, forKey: .rpc)
        hooks = try? container.decodeIfPresent(HookSettings.self, forKey: .hooks)
        proxies = try? container.decodeIfPresent(ProxySettings.self, forKey: .proxies)
        hosts = try? container.decodeIfPresent(HostSettings.self, forKey: .hosts)
        torrents = try? container.decodeIfPresent(TorrentSettings.self, forKey: .torrents)
        concurrency = try container.decodeIfPresent(Int.self, forKey: .concurrency)
        downloads = []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(network, forKey: .network)
        try container.encode(count, forKey: .count)
        try container.encode(length, forKey: .length)
        try container.encodeIfPresent(connections, forKey: .connections)
        try container.encodeIfPresent(cookieFile, forKey: .cookieFile)
        try container.encodeIfPresent(rpc, forKey: .rpc)
        try container.encodeIfPresent(hooks, forKey: .hooks)
        try container.encodeIfPresent(proxies, forKey: .proxies)
        try container.encodeIfPresent(hosts, forKey: .hosts)
        try container.encodeIfPresent(torrents, forKey: .torrents)
        try container.encodeIfPresent(concurrency, forKey: .concurrency)
    }
}

/// Which kind of haul process serves the socket.
public enum HostKind: String, Codable, Sendable {
    case daemon
    /// The TUI running the engine in-process.
    case tui
    /// `haul run`.
    case run
    /// `haul URL…`, which runs its own downloads and those its followers wait for.
    case get

    /// What the process is, in a message ("haul (pid 12, daemon)").
    public var name: String {
        switch self {
        case .get: "haul URL"
        default: rawValue
        }
    }

    /// The command the process runs ("haul daemon").
    public var processName: String {
        switch self {
        case .tui: "haul"
        case .get: "haul URL"
        default: "haul " + rawValue
        }
    }

    /// What a user does to end such a process (for messages).
    public var howToStop: String {
        switch self {
        case .daemon: "stop it with 'haul daemon --stop'"
        case .tui: "quit its full-screen UI"
        case .run: "stop its 'haul run' (Ctrl-C)"
        case .get: "stop its 'haul URL' (Ctrl-C)"
        }
    }
}

public enum ServerReply: Codable, Sendable, Equatable {
    case attached(WireSnapshot, away: AwayReport?)
    case snapshot(WireSnapshot)
    case download(Download?)
    case torrentDetails(TorrentDetails?)
    case ids([DownloadID])
    case network(NetworkStatus)
    case done
    /// The request was understood and refused or failed; the text is terminal-safe.
    case failed(String)
}

/// What the server sends: a greeting first, then replies and events in any order.
public enum ServerMessage: Codable, Sendable, Equatable {
    /// `version` is the server's ``Wire/version``; a server from before versions sends none.
    case hello(pid: Int32, kind: HostKind, version: Int? = nil)
    /// The connection is refused (another user); the server closes it after this.
    case refused(String)
    case reply(id: UInt64, ServerReply)
    case event(EngineEvent)
}

/// One JSON document per line; JSON strings never contain a raw newline.
public enum Wire {
    /// Raised whenever a message changes shape, so that a client and a server from different
    /// builds (a daemon still running after an upgrade) say so instead of misreading each other.
    /// 1: hellos without a version, `add` with one request; 2: `add` with a list;
    /// 3: snapshots as ``WireSnapshot``; 4: `download`, a state with its cause; 5: the RPC
    /// endpoint's settings and commands, moving a download before another; 7: `haul URL` as a
    /// kind of host, `follow`.
    public static let version = 7

    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var bytes = Array(try JSONEncoder().encode(value))
        bytes.append(0x0A)
        return bytes
    }

    /// A server message's line, and for a snapshot the downloads line after it.
    public static func encode(_ message: ServerMessage) throws -> [UInt8] {
        var bytes = Array(try JSONEncoder().encode(message))
        bytes.append(0x0A)
        if let snapshot = message.snapshot {
            bytes.append(contentsOf: snapshot.downloads)
            bytes.append(0x0A)
        }
        return bytes
    }

    public static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(line))
    }
}

extension ServerMessage {
    /// The snapshot a reply carries.
    var snapshot: WireSnapshot? {
        switch self {
        case .reply(_, .attached(let snapshot, _)), .reply(_, .snapshot(let snapshot)): snapshot
        default: nil
        }
    }

    func withSnapshotDownloads(_ downloads: [UInt8]) -> ServerMessage {
        switch self {
        case .reply(let id, .attached(var snapshot, let away)):
            snapshot.downloads = downloads
            snapshot.length = downloads.count
            return .reply(id: id, .attached(snapshot, away: away))
        case .reply(let id, .snapshot(var snapshot)):
            snapshot.downloads = downloads
            snapshot.length = downloads.count
            return .reply(id: id, .snapshot(snapshot))
        default:
            return self
        }
    }
}

/// Reads a server's lines back into messages: a message with a snapshot is complete only with
/// the downloads line that follows it.
public struct ServerMessageReader: Sendable {
    private var awaitingDownloads: ServerMessage?

    public init() {}

    /// The length of the line read next, when a snapshot's message said it.
    public var nextLineLength: Int? { awaitingDownloads?.snapshot?.length }

    /// The message `line` completes, or nil when it waits for the next line.
    public mutating func read(_ line: [UInt8]) throws -> ServerMessage? {
        if let message = awaitingDownloads {
            awaitingDownloads = nil
            return message.withSnapshotDownloads(line)
        }
        let message = try Wire.decode(ServerMessage.self, from: line)
        guard message.snapshot == nil else {
            awaitingDownloads = message
            return nil
        }
        return message
    }
}
