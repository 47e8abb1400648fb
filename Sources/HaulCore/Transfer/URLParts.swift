/// An absolute URL split into the parts a request needs (RFC 3986 §3).
///
/// Every download's request and file name start from its URL. Characters not allowed in a path or query
/// (spaces, `|`, non-ASCII) are percent-encoded the way `URLComponents` does; an existing `%XX`
/// is kept. A host is kept as written, non-ASCII (internationalized) included.
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

    /// The parts of `url`; nil unless it is `scheme://host…` with a valid port and no space or
    /// control character before the path.
    public init?(_ url: String) {
        let bytes = Array(url.utf8)
        // scheme ":" "//"
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[0].isASCIILetter,
            bytes[..<colon].allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
            ),
            bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()

        let authorityStart = colon + 3
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.endIndex // / ? #
        var authority = bytes[authorityStart..<authorityEnd]
        guard authority.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            userinfo = String(decoding: authority[..<at], as: UTF8.self)
            authority = authority[(at + 1)...]
        } else {
            userinfo = nil
        }
        var hostBytes = authority
        var portBytes: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostBytes = authority[(authority.startIndex + 1)..<close]
            let rest = authority[(close + 1)...]
            if let first = rest.first {
                guard first == UInt8(ascii: ":") else { return nil }
                portBytes = rest.dropFirst()
            }
        } else if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
            hostBytes = authority[..<portColon]
            portBytes = authority[(portColon + 1)...]
        }
        guard !hostBytes.isEmpty, !hostBytes.contains(UInt8(ascii: "%")) else { return nil }
        host = String(decoding: hostBytes, as: UTF8.self)
        if let portBytes, !portBytes.isEmpty {
            guard portBytes.count <= 5, portBytes.allSatisfy(\.isASCIIDigit),
                let value = Int(String(decoding: portBytes, as: UTF8.self)), value <= 65535
            else { return nil }
            port = value
        } else {
            port = nil
        }

        let rest = bytes[authorityEnd...]
        let fragment = rest.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex
        let beforeFragment = rest[..<fragment]
        if let mark = beforeFragment.firstIndex(of: UInt8(ascii: "?")) {
            path = Self.encoded(beforeFragment[..<mark], allowing: Self.isPathByte)
            query = Self.encoded(beforeFragment[(mark + 1)...], allowing: Self.isQueryByte)
        } else {
            path = Self.encoded(beforeFragment, allowing: Self.isPathByte)
            query = nil
        }
    }

    /// Path and query as sent on an HTTP request line: `/` when the path is empty.
    public var requestTarget: String {
        let path = path.isEmpty ? "/" : path
        return query.map { path + "?" + $0 } ?? path
    }

    /// The user name and password of ``userinfo``, percent-decoded; nil without a user name.
    public var credentials: (user: String, password: String)? {
        guard let userinfo, !userinfo.isEmpty else { return nil }
        let colon = userinfo.firstIndex(of: ":")
        let user = Self.decoded(userinfo[..<(colon ?? userinfo.endIndex)])
        let password = colon.map { Self.decoded(userinfo[userinfo.index(after: $0)...]) } ?? ""
        return user.isEmpty ? nil : (user, password)
    }

    // MARK: Percent-encoding

    private static func decoded(_ text: Substring) -> String {
        ContentDisposition.percentDecode(text).map { String(decoding: $0, as: UTF8.self) } ?? String(text)
    }

    /// `bytes` as a string, with every byte `allowed` rejects written as `%XX` (a valid `%XX` stays).
    private static func encoded(_ bytes: ArraySlice<UInt8>, allowing allowed: (UInt8) -> Bool) -> String {
        func isEscape(at i: Int) -> Bool {
            bytes[i] == UInt8(ascii: "%") && i + 2 < bytes.endIndex && bytes[i + 1].isASCIIHexDigit
                && bytes[i + 2].isASCIIHexDigit
        }
        if bytes.indices.allSatisfy({ allowed(bytes[$0]) || isEscape(at: $0) }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for i in bytes.indices {
            let byte = bytes[i]
            if allowed(byte) || isEscape(at: i) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// unreserved / sub-delims / ":" / "@" / "/" (RFC 3986 §3.3); "%" only as part of an escape.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if byte.isASCIILetter || byte.isASCIIDigit { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// A path byte, "?" (RFC 3986 §3.4).
    private static func isQueryByte(_ byte: UInt8) -> Bool {
        isPathByte(byte) || byte == UInt8(ascii: "?")
    }
}

extension UInt8 {
    fileprivate var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    fileprivate var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
    fileprivate var isASCIIHexDigit: Bool {
        isASCIIDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
