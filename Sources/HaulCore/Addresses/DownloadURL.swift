import FoundationEssentials

/// Validation of URLs that users hand to haul: http and https, and magnet links.
public enum DownloadURL {
    public static let supportedSchemes: Set<String> = ["http", "https"]

    /// The http(s) URI for a URL as given (pasted text is encoded as browsers do, see
    /// ``PastedURL``), or a clear error naming it.
    public static func validate(_ text: String) throws(InputError) -> String {
        // A magnet link is checked as one (the engine fetches it from the swarm).
        if MagnetLink.isMagnet(text) { return try MagnetLink.validate(text) }
        // Every door hands the engine a URL it validated once already; that one is returned as it is.
        if let canonical = canonical(text) { return canonical }
        return try validateFully(text)
    }

    /// ``validate(_:)`` without the shortcut for a URL already in its canonical form.
    static func validateFully(_ text: String) throws(InputError) -> String {
        let given = text.trimmingCharacters(where: \.isWhitespace)
        var shown: String { TerminalText.sanitize(given) }
        guard !given.isEmpty else { throw InputError("empty URL") }
        // Spaces are encoded (people paste them); control characters are never in a link.
        guard !given.unicodeScalars.contains(where: { isSpaceOrControl($0) && $0 != " " }) else {
            throw InputError("'\(shown)' is not a valid URL (it contains control characters)")
        }
        guard let trimmed = PastedURL.uri(from: given) else {
            if given.contains("://") {
                throw InputError("'\(shown)' is not a valid URL (its host name is empty or holds spaces or symbols)")
            }
            throw InputError("'\(shown)' is not a valid URL (expected http://… or https://…)")
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw InputError("'\(shown)' is not a valid URL (expected http://… or https://…)")
        }
        guard supportedSchemes.contains(scheme) else {
            throw InputError(
                "unsupported scheme '\(TerminalText.sanitize(scheme))' in '\(shown)': haul downloads http and https")
        }
        guard let host = components.host, !host.isEmpty else {
            throw InputError("'\(shown)' has no host name")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw InputError("'\(shown)' has an invalid port")
        }
        return trimmed
    }

    /// `text` when it is already an http(s) URI as ``validate(_:)`` would give it back: a plain
    /// host name or IPv4 address, a port in range, and a target of the characters RFC 3986
    /// allows there or valid `%HH` escapes. Anything else (user info, IPv6, non-ASCII, spaces)
    /// takes the full path.
    static func canonical(_ text: String) -> String? {
        var bytes = text.utf8[...]
        if bytes.starts(with: "http://".utf8) {
            bytes = bytes.dropFirst(7)
        } else if bytes.starts(with: "https://".utf8) {
            bytes = bytes.dropFirst(8)
        } else {
            return nil
        }
        let authorityEnd = bytes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.endIndex
        let authority = bytes[..<authorityEnd]
        let colon = authority.firstIndex(of: UInt8(ascii: ":"))
        let host = authority[..<(colon ?? authority.endIndex)]
        guard !host.isEmpty, host.allSatisfy(isHostByte) else { return nil }
        if let colon {
            let port = authority[authority.index(after: colon)...]
            guard (1...5).contains(port.count), port.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(String(decoding: port, as: UTF8.self)), (1...65535).contains(number)
            else { return nil }
        }
        var target = bytes[authorityEnd...].makeIterator()
        while let byte = target.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = target.next(), let low = target.next(), isHex(high), isHex(low) else { return nil }
            } else if !isTargetByte(byte) {
                return nil
            }
        }
        return text
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    /// RFC 3986's unreserved and sub-delimiter characters and what a path and query may also hold.
    private static func isTargetByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "-._~!$&'()*+,;=:@/?".utf8.contains(byte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x21 || scalar.value == 0x7F }
        return scalar.properties.generalCategory == .control
    }
}
