import FoundationEssentials

/// An absolute URL split into the parts a request needs, by `URLComponents` (RFC 3986 §3).
///
/// Characters not allowed in a path or query (spaces, `|`, non-ASCII) come out percent-encoded;
/// an existing `%XX` is kept. A host is kept as written, non-ASCII (internationalized) included.
public struct URLParts: Sendable, Equatable {
    /// Lowercased.
    public let scheme: String
    /// `user[:password]` as written (percent-encoded), without the `@`.
    public let userinfo: String?
    /// As written; an IPv6 literal without its brackets.
    public let host: String
    public let port: Int?
    /// Percent-encoded; empty when the URL has no path.
    public let path: String
    /// Percent-encoded, without the `?`.
    public let query: String?
    /// The user name and password of ``userinfo``, percent-decoded; nil without a user name.
    public let credentials: Credentials?

    public struct Credentials: Sendable, Equatable {
        public let user: String
        public let password: String
    }

    /// The parts of `url`; nil unless it is `scheme://host…` with a valid port and no space,
    /// control character or escape in its authority.
    public init?(_ url: String) {
        // The authority is checked as written: `URLComponents` would encode a space in a host,
        // or decode an escape, into a name no resolver should be asked for.
        guard let separator = url.firstRange(of: "://") else { return nil }
        let authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        guard !authority.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
            !hostAndPort.contains("%"),
            let components = URLComponents(string: url),
            let scheme = components.scheme, scheme.first?.isLetter == true,
            var host = components.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return nil }
            host = String(host.dropFirst().dropLast())
        }
        if let port = components.port, !(0...65535).contains(port) { return nil }
        self.scheme = scheme.lowercased()
        self.host = host
        port = components.port
        path = components.percentEncodedPath
        query = components.percentEncodedQuery
        if let user = components.percentEncodedUser {
            userinfo = components.percentEncodedPassword.map { "\(user):\($0)" } ?? user
        } else {
            userinfo = nil
        }
        if let user = components.user, !user.isEmpty {
            credentials = Credentials(user: user, password: components.password ?? "")
        } else {
            credentials = nil
        }
    }

    /// Path and query as sent on an HTTP request line: `/` when the path is empty.
    public var requestTarget: String {
        let path = path.isEmpty ? "/" : path
        return query.map { path + "?" + $0 } ?? path
    }
}
