import Foundation
import HaulCore

/// The proxies named by the usual environment variables (`http_proxy`, `https_proxy`,
/// `all_proxy`, `no_proxy`, lower case winning as curl does).
public struct ProxyEnvironment: Sendable, Equatable {
    public struct Endpoint: Sendable, Equatable, Hashable {
        public var host: String
        public var port: Int
        public var user: String?
        public var password: String?
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
        let scheme = components.scheme?.lowercased()
        guard scheme == "http" || scheme == nil else { return nil }
        return Endpoint(host: host, port: components.port ?? 80, user: components.user, password: components.password)
    }
}
