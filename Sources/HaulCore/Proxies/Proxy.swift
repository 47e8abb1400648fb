import FoundationEssentials

/// A proxy as a user names it: `http://[user:password@]host[:port]` (CONNECT for https
/// origins), `socks5://` or `socks5h://host[:port]` (the name resolved by the proxy).
public struct ProxyAddress: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case http, socks5, socks5h
    }

    public var kind: Kind
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?

    public init(kind: Kind, host: String, port: Int, user: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.user = user
        self.password = password
    }

    /// The proxy `text` names, or why it cannot be one, in a sentence.
    public init(parsing text: String) throws(InputError) {
        let text = text.trimmed()
        let shown = Redaction.url(TerminalText.sanitize(text))
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty,
            let scheme = components.scheme?.lowercased(), components.path.isEmpty || components.path == "/"
        else { throw InputError("'\(shown)' is not a proxy: say http://HOST:PORT, socks5://HOST:PORT or none") }
        switch scheme {
        case "http": kind = .http
        case "socks5": kind = .socks5
        case "socks5h": kind = .socks5h
        case "https":
            throw InputError("'\(shown)': TLS to the proxy itself (https://) is not supported; use http://")
        default:
            throw InputError("'\(shown)': haul speaks to http://, socks5:// and socks5h:// proxies")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (kind == .http ? 8080 : 1080)
        user = components.user
        password = components.password
    }

    /// The proxy as shown to people: its password as `***`.
    public var display: String {
        let credentials = user.map { $0 + (password == nil ? "" : ":***") + "@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(kind.rawValue)://\(credentials)\(shownHost):\(port)"
    }
}

/// A download's, a host's or the global choice: a proxy, or none (directly, whatever a wider
/// setting or the environment says).
public enum ProxyChoice: Codable, Sendable, Hashable {
    case direct
    case through(ProxyAddress)

    /// `none` or a proxy URL.
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmed().lowercased()
        if trimmed == "none" || trimmed == "direct" {
            self = .direct
        } else {
            self = .through(try ProxyAddress(parsing: text))
        }
    }

    public var display: String {
        switch self {
        case .direct: return "none"
        case .through(let address): return address.display
        }
    }
}

/// The saved proxies: one for every download, and ones for hosts (`--for '*.example.org'`).
public struct ProxySettings: Codable, Sendable, Hashable {
    public struct HostRule: Codable, Sendable, Hashable {
        /// A host glob; `*.example.org` covers `example.org` itself too.
        public var pattern: String
        public var choice: ProxyChoice

        public init(pattern: String, choice: ProxyChoice) {
            self.pattern = pattern.lowercased()
            self.choice = choice
        }

        public func matches(_ host: String) -> Bool {
            HostPattern.matches(pattern, host: host)
        }
    }

    public var global: ProxyChoice?
    public var hosts: [HostRule]

    public init(global: ProxyChoice? = nil, hosts: [HostRule] = []) {
        self.global = global
        self.hosts = hosts
    }

    public var isEmpty: Bool { global == nil && hosts.isEmpty }

    /// The choice for a request to `host`: the download's own, then the first host rule that
    /// matches, then the global one; nil leaves it to the environment (`http_proxy`…).
    public func choice(forHost host: String?, own: ProxyChoice?) -> ProxyChoice? {
        if let own { return own }
        if let host = host?.lowercased(), let rule = hosts.first(where: { $0.matches(host) }) { return rule.choice }
        return global
    }
}
