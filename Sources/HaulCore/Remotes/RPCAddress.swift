/// Where an engine's aria2 JSON-RPC is served, as `--connect` names it: `ws://nas:6800/jsonrpc`,
/// `http://…`, their TLS forms, or a bare `host:port`. Calls go over HTTP POST; notifications
/// come over a WebSocket on the same port and path, as aria2 serves both.
public struct RPCAddress: Sendable, Equatable {
    public let host: String
    public let port: Int
    /// Percent-encoded, `/jsonrpc` when the address names none.
    public let path: String
    /// `wss://` or `https://`.
    public let secure: Bool

    /// The address `text` names; throws the sentence that says why it names none.
    public init(_ text: String) throws(InputError) {
        var url = text
        if !url.contains("://") { url = "http://" + url }
        guard let parts = URLParts(url) else {
            throw InputError("\(TerminalText.sanitize(text)) is not an RPC address (e.g. ws://nas:6800/jsonrpc)")
        }
        switch parts.scheme {
        case "ws", "http": secure = false
        case "wss", "https": secure = true
        default:
            throw InputError(
                "\(TerminalText.sanitize(text)): an RPC address starts with ws://, wss://, http:// or https://")
        }
        host = parts.host
        port = parts.port ?? RPCSettings.defaultPort
        path = parts.path.isEmpty || parts.path == "/" ? "/jsonrpc" : parts.path
    }

    private var hostInURL: String { host.contains(":") ? "[\(host)]" : host }

    /// Where calls are posted.
    public var callURL: String { "\(secure ? "https" : "http")://\(hostInURL):\(port)\(path)" }

    /// Where notifications are listened for.
    public var socketURL: String { "\(secure ? "wss" : "ws")://\(hostInURL):\(port)\(path)" }

    /// `nas:6800`, as the header names it.
    public var place: String { "\(hostInURL):\(port)" }

    /// Whether the engine is on this machine (its traffic never leaves it).
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The warning a secret sent in clear text over a network deserves; nil when it is not.
    public func cleartextWarning(hasSecret: Bool) -> String? {
        guard !secure, !isLoopback, hasSecret else { return nil }
        return "the RPC secret travels in clear text to \(place); use wss:// or https:// where the engine offers TLS"
    }
}
