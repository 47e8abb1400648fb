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
        // A scheme starts with a letter (RFC 3986 §3.1), which is ASCII.
        guard Self.authorityIsPlain(url), let components = URLComponents(string: url),
            let scheme = components.scheme, let first = scheme.utf8.first, (first | 0x20) >= UInt8(ascii: "a"),
            (first | 0x20) <= UInt8(ascii: "z"), var host = components.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return nil }
            host = String(host.dropFirst().dropLast())
        }
        let port = components.port
        if let port, !(0...65535).contains(port) { return nil }
        self.scheme = scheme.lowercased()
        self.host = host
        self.port = port
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

    /// Whether `url` has a `://` and, after it, an authority with no space or control character
    /// and no `%` in its host and port.
    ///
    /// The authority is checked as written: `URLComponents` would encode a space in a host, or
    /// decode an escape, into a name no resolver should be asked for. It is read as UTF-8 bytes,
    /// because every URL a request is made for is parsed here, and String's generic searches cost
    /// more than the parse itself.
    static func authorityIsPlain(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            var i = 0
            while i + 2 < bytes.count,
                !(bytes[i] == UInt8(ascii: ":") && bytes[i + 1] == UInt8(ascii: "/")
                    && bytes[i + 2] == UInt8(ascii: "/"))
            {
                i += 1
            }
            guard i + 2 < bytes.count else { return false }
            var sawPercent = false
            for byte in bytes[(i + 3)...] {
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return !sawPercent
                case 0...0x20, 0x7F: return false
                // A `%` before the last `@` is in the user information, where it is an escape.
                case UInt8(ascii: "@"): sawPercent = false
                case UInt8(ascii: "%"): sawPercent = true
                default: break
                }
            }
            return !sawPercent
        }
    }

    /// Path and query as sent on an HTTP request line: `/` when the path is empty.
    public var requestTarget: String {
        let path = path.isEmpty ? "/" : path
        return query.map { path + "?" + $0 } ?? path
    }
}
