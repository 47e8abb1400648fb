import Foundation

/// What a client asks of the haul process that owns the state file, over its Unix socket.
public enum ClientRequest: Codable, Sendable, Equatable {
    /// Downloads and network status now, then every event from here on. A UI (`ui: true`)
    /// also takes the away report, and while one is attached nothing more is recorded in it.
    case attach(ui: Bool)
    /// Downloads and network status now.
    case snapshot
    case perform(EngineCommand)
    /// Writes the state file now, so a command's change is on disk when the command returns.
    case save
    /// The network status with the metered probe asked afresh.
    case refreshNetwork
    /// Answers when nothing is waiting or downloading (for `haul run` against a daemon).
    case waitUntilIdle
    /// Asks a daemon to stop (its downloads resume from their `.part` files later).
    case shutdown
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

/// The downloads and the network status at one moment.
public struct EngineSnapshot: Codable, Sendable, Equatable {
    public var downloads: [Download]
    public var network: NetworkStatus

    public init(downloads: [Download], network: NetworkStatus) {
        self.downloads = downloads
        self.network = network
    }
}

/// Which kind of haul process serves the socket.
public enum HostKind: String, Codable, Sendable {
    case daemon
    /// The TUI running the engine in-process.
    case tui
    /// `haul run`.
    case run

    /// What a user does to end such a process (for messages).
    public var howToStop: String {
        switch self {
        case .daemon: "stop it with 'haul daemon --stop'"
        case .tui: "quit its full-screen UI"
        case .run: "stop its 'haul run' (Ctrl-C)"
        }
    }
}

public enum ServerReply: Codable, Sendable, Equatable {
    case attached(EngineSnapshot, away: AwayReport?)
    case snapshot(EngineSnapshot)
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
    /// 1: hellos without a version, `add` with one request; 2: `add` with a list.
    public static let version = 2

    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var bytes = Array(try JSONEncoder().encode(value))
        bytes.append(0x0A)
        return bytes
    }

    public static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(line))
    }
}
