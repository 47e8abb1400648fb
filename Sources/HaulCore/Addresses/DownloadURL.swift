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
                "unsupported scheme '\(TerminalText.sanitize(scheme))' in '\(shown)': haul fetches http and https "
                    + "URLs, magnet links and torrent files")
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
        canonicalTarget(text) == nil ? nil : text
    }

    /// The path and query of a URL that is in canonical form (see ``canonical(_:)``), as written:
    /// `URLComponents` would give the same, for it has nothing to encode; nil for any other text.
    public static func canonicalTarget(_ text: String) -> Substring? {
        var contiguous = text
        guard let offset = contiguous.withUTF8(canonicalTargetOffset) else { return nil }
        return text[text.utf8.index(text.utf8.startIndex, offsetBy: offset)...]
    }

    /// Where the target starts in the bytes of a canonical URL; nil when they are not one. Read
    /// from the bytes: every download's name is cut this way when a list is shown.
    private static func canonicalTargetOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i: Int
        if bytes.starts(with: "http://".utf8) {
            i = 7
        } else if bytes.starts(with: "https://".utf8) {
            i = 8
        } else {
            return nil
        }
        func endsAuthority(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") }
        let hostStart = i
        while i < bytes.count, !endsAuthority(bytes[i]), bytes[i] != UInt8(ascii: ":") {
            guard isHostByte(bytes[i]) else { return nil }
            i += 1
        }
        guard i > hostStart else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
            i += 1
            let portStart = i
            var port = 0
            while i < bytes.count, !endsAuthority(bytes[i]) {
                guard (0x30...0x39).contains(bytes[i]), i - portStart < 5 else { return nil }
                port = port * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            guard i > portStart, (1...65535).contains(port) else { return nil }
        }
        let targetStart = i
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else { return nil }
                i += 3
            } else {
                guard isTargetByte(bytes[i]) else { return nil }
                i += 1
            }
        }
        return targetStart
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    /// RFC 3986's unreserved and sub-delimiter characters and what a path and query may also hold.
    private static func isTargetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default: isAlphanumeric(byte)
        }
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
