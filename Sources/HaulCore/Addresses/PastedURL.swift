import FoundationEssentials

/// A URL as people paste it from chats and documents (raw non-ASCII, spaces, a `|`, beside valid
/// `%XX` escapes: an IRI, RFC 3987) made into the URI a server expects (RFC 3986), as browsers
/// and wget do: what a URL may not hold is encoded as UTF-8 escapes, a valid escape is kept as it
/// is (never encoded twice), a `%` that starts none becomes `%25`, an internationalized host
/// name becomes its punycode form, and the fragment, which is never sent, is dropped.
/// Foundation's encoding of invalid characters also encodes the `%` of valid escapes, so only
/// the punycode is Foundation's (docs/PERFORMANCE.md).
public enum PastedURL {
    /// The URI for `text` (trimmed), or nil when no URL can be made of it (no `scheme://`, an
    /// empty host, or a host with spaces or characters no host name holds).
    public static func uri(from text: String) -> String? {
        let trimmed = text.trimmed()
        guard let schemeEnd = trimmed.firstRange(of: "://") else { return nil }
        let scheme = trimmed[..<schemeEnd.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            scheme.unicodeScalars.allSatisfy({ $0.isASCII && (isAlphanumeric($0) || "+-.".unicodeScalars.contains($0)) }
            )
        else { return nil }
        var rest = trimmed[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let target = rest[authorityEnd...]

        var hostPort = Substring(authority)
        var userinfo: String?
        if let at = authority.lastIndex(of: "@") {
            userinfo = escaped(authority[..<at], keeping: userinfoCharacters)
            hostPort = authority[authority.index(after: at)...]
        }
        guard let (host, port) = split(hostPort), let asciiHost = asciiHost(host) else { return nil }
        var uri = scheme.lowercased() + "://"
        if let userinfo { uri += userinfo + "@" }
        uri += asciiHost
        if let port { uri += ":" + port }
        uri += escaped(target, keeping: targetCharacters)
        return uri
    }

    /// The host and the port (digits, possibly none) of `host[:port]` or `[v6]:port`.
    private static func split(_ hostPort: Substring) -> (host: Substring, port: Substring?)? {
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return nil }
            let host = hostPort[...close]
            let after = hostPort[hostPort.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            return (host, after.isEmpty ? nil : after.dropFirst())
        }
        guard let colon = hostPort.lastIndex(of: ":") else { return (hostPort, nil) }
        let port = hostPort[hostPort.index(after: colon)...]
        guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return (hostPort[..<colon], port)
    }

    /// The host as ASCII: an IP literal or a name as it is, a name with non-ASCII letters in its
    /// punycode (IDNA) form, which Foundation makes; nil for what is no host name.
    private static func asciiHost(_ host: Substring) -> String? {
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "%" }),
            !host.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        if host.unicodeScalars.allSatisfy(\.isASCII) { return String(host) }
        guard let url = URL(string: "http://\(host)/", encodingInvalidCharacters: true) else { return nil }
        let text = url.absoluteString
        guard text.hasPrefix("http://"), text.hasSuffix("/") else { return nil }
        let converted = text.dropFirst("http://".count).dropLast()
        guard !converted.isEmpty, converted.unicodeScalars.allSatisfy(\.isASCII), !converted.contains("%") else {
            return nil
        }
        return String(converted)
    }

    /// RFC 3986's unreserved and sub-delimiter characters, and what a path and query may also hold.
    private static let targetCharacters = Set("-._~!$&'()*+,;=:@/?".unicodeScalars)
    private static let userinfoCharacters = Set("-._~!$&'()*+,;=:".unicodeScalars)

    /// `text` with every byte a URI may not hold there written as `%HH`, valid escapes kept.
    /// With `keepingEscapes` false, every `%` is encoded too (a password is taken literally).
    static func escaped(_ text: Substring, keeping allowed: Set<Unicode.Scalar>, keepingEscapes: Bool = true) -> String
    {
        let bytes = Array(text.utf8)
        var out = ""
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if keepingEscapes, byte == UInt8(ascii: "%"), i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2])
            {
                out += String(decoding: bytes[i...(i + 2)], as: UTF8.self)
                i += 3
                continue
            }
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, isAlphanumeric(scalar) || allowed.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
            i += 1
        }
        return out
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
