import FoundationEssentials

/// One HTTP cookie (RFC 6265): what is sent, and to which requests.
public struct Cookie: Sendable, Equatable {
    public var name: String
    public var value: String
    /// Lowercased, without a leading dot.
    public var domain: String
    /// Sent to ``domain`` only, not to its subdomains.
    public var hostOnly: Bool
    public var path: String
    /// Sent over https only.
    public var secure: Bool
    /// Nil for a session cookie.
    public var expires: Date?

    public init(
        name: String, value: String, domain: String, hostOnly: Bool, path: String, secure: Bool, expires: Date?
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.secure = secure
        self.expires = expires
    }

    /// Whether a request to `parts` at `now` carries this cookie (RFC 6265 §5.4).
    public func belongs(to parts: URLParts, at now: Date) -> Bool {
        if let expires, expires <= now { return false }
        if secure && parts.scheme != "https" { return false }
        return Self.domainMatches(parts.host.lowercased(), domain, hostOnly: hostOnly)
            && Self.pathMatches(parts.path.isEmpty ? "/" : parts.path, path)
    }

    /// RFC 6265 §5.1.3, with host-only cookies matching their host alone.
    static func domainMatches(_ host: String, _ domain: String, hostOnly: Bool) -> Bool {
        if host == domain { return true }
        return !hostOnly && host.hasSuffix("." + domain) && !host.isIPAddress
    }

    /// RFC 6265 §5.1.4.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.utf8.count == cookiePath.utf8.count || cookiePath.hasSuffix("/")
            || requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// RFC 6265 §5.1.4's default path: the request path up to its last `/`.
    static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex
        else { return "/" }
        return String(requestPath[..<slash])
    }
}

extension String {
    fileprivate var isIPAddress: Bool {
        contains(":") || (split(separator: ".").count == 4 && allSatisfy { $0.isNumber || $0 == "." })
    }
}
