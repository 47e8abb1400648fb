/// A byte-by-byte check that recognizes the common shape of a download URL without Foundation's
/// parser: `haul add -i` validates every URL of a list, and `URLComponents` costs a few
/// microseconds each.
///
/// Accepts only `http(s)://host[:port][/path][?query]` with a host of letters, digits, `.` and
/// `-` (starting with a letter or digit), a port of 1–65535, and a path and query made of the
/// characters RFC 3986 allows there (`%` followed by two hex digits). Every URL it accepts is
/// valid; one it does not accept is not thereby invalid (user info, IPv6 literals, fragments and
/// anything non-ASCII go to `URLComponents`).
enum PlainURLCheck {
    static func isPlainHTTPURL(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { isPlainHTTPURL($0) }
    }

    static func isPlainHTTPURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        func lower(_ byte: UInt8) -> UInt8 { byte | 0x20 }
        // "http" or "https", any case, then "://".
        guard bytes.count > 7, lower(bytes[0]) == UInt8(ascii: "h"), lower(bytes[1]) == UInt8(ascii: "t"),
            lower(bytes[2]) == UInt8(ascii: "t"), lower(bytes[3]) == UInt8(ascii: "p")
        else { return false }
        i = 4
        if lower(bytes[i]) == UInt8(ascii: "s") { i += 1 }
        guard i + 3 <= bytes.count, bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == UInt8(ascii: "/"),
            bytes[i + 2] == UInt8(ascii: "/")
        else { return false }
        i += 3

        let hostStart = i
        while i < bytes.count,
            isAlphanumeric(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "-")
        { i += 1 }
        guard i > hostStart, isAlphanumeric(bytes[hostStart]) else { return false }

        if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
            i += 1
            var port = 0
            let digitsStart = i
            while i < bytes.count, i - digitsStart < 5, isDigit(bytes[i]) {
                port = port * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                i += 1
            }
            guard i > digitsStart, (1...65535).contains(port) else { return false }
        }
        guard i == bytes.count || bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: "?") else { return false }

        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, isHexDigit(bytes[i + 1]), isHexDigit(bytes[i + 2]) else { return false }
                i += 3
                continue
            }
            guard isPathOrQueryCharacter(byte) else { return false }
            i += 1
        }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        let letter = byte | 0x20
        return isDigit(byte) || (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        let letter = byte | 0x20
        return isDigit(byte) || (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "f"))
    }

    /// RFC 3986 `pchar`, `/` and `?`: unreserved, sub-delims, `:` and `@` (percent signs apart).
    private static func isPathOrQueryCharacter(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}
