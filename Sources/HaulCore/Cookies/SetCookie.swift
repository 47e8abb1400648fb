import FoundationEssentials

/// A `Set-Cookie` header value read as RFC 6265 §5.2 says.
enum SetCookie {
    /// The cookie `line` sets for a response from `parts`, and whether it is already expired (it
    /// then removes one of the same name); nil for one the jar must ignore.
    static func parse(_ line: String, from parts: URLParts, at now: Date) -> (Cookie, expired: Bool)? {
        var attributes = line.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let pair = attributes.next(), let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmed()
        let value = pair[pair.index(after: equals)...].trimmed()
        guard !name.isEmpty else { return nil }
        let host = parts.host.lowercased()
        var cookie = Cookie(
            name: name, value: value, domain: host, hostOnly: true,
            path: Cookie.defaultPath(parts.path.isEmpty ? "/" : parts.path), secure: false, expires: nil)
        var maxAge: Int?
        var expires: Date?
        while let attribute = attributes.next() {
            let (key, raw) = split(attribute)
            switch key {
            case "domain":
                var domain = raw.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                guard Cookie.domainMatches(host, domain, hostOnly: false) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                cookie.path = raw.hasPrefix("/") ? raw : cookie.path
            case "secure":
                cookie.secure = true
            case "max-age":
                maxAge = Int(raw)
            case "expires":
                expires = HTTPDate.parse(raw)
            default:
                continue
            }
        }
        if let maxAge {
            cookie.expires = now.addingTimeInterval(Double(maxAge))
            return (cookie, maxAge <= 0)
        }
        if let expires {
            cookie.expires = expires
            return (cookie, expires <= now)
        }
        return (cookie, false)
    }

    private static func split(_ attribute: Substring) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else {
            return (attribute.trimmed().lowercased(), "")
        }
        return (
            attribute[..<equals].trimmed().lowercased(),
            attribute[attribute.index(after: equals)...].trimmed()
        )
    }
}
