import FoundationEssentials
import HaulCore

extension ProxyAddress {
    public init(_ endpoint: ProxyEnvironment.Endpoint) {
        self.init(
            kind: endpoint.kind, host: endpoint.host, port: endpoint.port, user: endpoint.user,
            password: endpoint.password)
    }
}

/// The proxies named by the usual environment variables (`http_proxy`, `https_proxy`,
/// `all_proxy`, `no_proxy`, lower case winning as curl does).
public struct ProxyEnvironment: Sendable, Equatable {
    public struct Endpoint: Sendable, Equatable, Hashable {
        public var host: String
        public var port: Int
        public var user: String?
        public var password: String?
        public var kind: ProxyAddress.Kind = .http

        public init(
            host: String, port: Int, user: String? = nil, password: String? = nil, kind: ProxyAddress.Kind = .http
        ) {
            self.host = host
            self.port = port
            self.user = user
            self.password = password
            self.kind = kind
        }

        public init(_ address: ProxyAddress) {
            self.init(
                host: address.host, port: address.port, user: address.user, password: address.password,
                kind: address.kind)
        }
    }

    public var http: Endpoint?
    public var https: Endpoint?
    public var noProxy: [String]

    public init(environment: [String: String]) {
        func value(_ name: String) -> String? {
            let v = environment[name] ?? environment[name.uppercased()]
            return (v?.isEmpty ?? true) ? nil : v
        }
        let all = value("all_proxy").flatMap(Self.parseEndpoint)
        // HTTP_PROXY in upper case is ignored by curl for CGI safety; we do the same.
        http = (environment["http_proxy"].flatMap(Self.parseEndpoint)) ?? all
        https = value("https_proxy").flatMap(Self.parseEndpoint) ?? all
        noProxy = (value("no_proxy") ?? "").split(separator: ",").map { $0.trimmingASCIIWhitespace().lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The proxy a request goes through: the one its download, host or the settings chose
    /// (`choice`), else the environment's for its URL; nil to connect directly.
    public func endpoint(for url: String, choice: ProxyChoice?) -> Endpoint? {
        switch choice {
        case .direct?: return nil
        case .through(let address)?: return Endpoint(address)
        case nil: return endpoint(for: url)
        }
    }

    /// The proxy to use for `url`, or nil to connect directly.
    public func endpoint(for url: String) -> Endpoint? {
        guard http != nil || https != nil, let components = URLComponents(string: url),
            let host = components.host?.lowercased()
        else { return nil }
        if bypasses(host) { return nil }
        return components.scheme?.lowercased() == "https" ? https : http
    }

    func bypasses(_ host: String) -> Bool {
        for entry in noProxy {
            if entry == "*" { return true }
            let bare = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == bare || host.hasSuffix("." + bare) { return true }
        }
        return false
    }

    static func parseEndpoint(_ text: String) -> Endpoint? {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            return nil
        }
        switch components.scheme?.lowercased() {
        case "http"?, nil:
            return Endpoint(
                host: host, port: components.port ?? 80, user: components.user, password: components.password)
        case "socks5"?, "socks5h"?:
            return Endpoint(host: host, port: components.port ?? 1080, kind: .socks5h)
        default:
            return nil
        }
    }
}
