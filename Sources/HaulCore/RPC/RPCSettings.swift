/// The aria2-compatible JSON-RPC endpoint, as `haul rpc on` saves it: whichever haul process owns
/// the state serves it while these settings exist.
public struct RPCSettings: Codable, Sendable, Equatable {
    /// The port aria2 and the browser extensions use by default.
    public static let defaultPort = 6800
    public static let loopback = "127.0.0.1"

    public var port: Int
    /// The address listened on: loopback unless the user names another.
    public var listen: String
    /// What every call must carry as `token:SECRET`; `haul rpc on` makes one when none is given.
    public var secret: String
    /// Directories besides the download directory that a call may put files in (with `dir`).
    public var allowedDirectories: [String]
    /// Options set with `aria2.changeGlobalOption` that later downloads added over RPC take
    /// (`dir`, `split`, `max-connection-per-server`, `max-download-limit`), by aria2's names.
    public var globalOptions: [String: String]

    public init(
        port: Int = defaultPort, listen: String = loopback, secret: String, allowedDirectories: [String] = [],
        globalOptions: [String: String] = [:]
    ) {
        self.port = port
        self.listen = listen
        self.secret = secret
        self.allowedDirectories = allowedDirectories
        self.globalOptions = globalOptions
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? Self.defaultPort
        listen = try c.decodeIfPresent(String.self, forKey: .listen) ?? Self.loopback
        secret = try c.decode(String.self, forKey: .secret)
        allowedDirectories = try c.decodeIfPresent([String].self, forKey: .allowedDirectories) ?? []
        globalOptions = try c.decodeIfPresent([String: String].self, forKey: .globalOptions) ?? [:]
    }

    /// Whether the endpoint is reachable only from this machine.
    public var isLoopbackOnly: Bool {
        listen == Self.loopback || listen == "::1" || listen == "localhost" || listen.hasPrefix("127.")
    }

    /// A secret of 32 hex digits from the system's random source.
    public static func makeSecret() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let digits = String(rng.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
