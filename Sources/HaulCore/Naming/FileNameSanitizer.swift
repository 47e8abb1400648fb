import FoundationEssentials

/// Turns a name suggested by a server or a URL into one safe to create in the destination.
///
/// The result has no path separators, is not `.` or `..`, has no control characters or
/// escape sequences, does not start with a dot, and fits ``maximumBytes`` so that
/// `name (NN).ext.part` still fits the 255-byte limit of Linux file systems.
public enum FileNameSanitizer {
    public static let maximumBytes = 240

    /// A safe name, or nil if nothing usable is left.
    public static func sanitize(_ suggestion: String) -> String? {
        isClean(suggestion) ? suggestion : sanitizeInFull(suggestion)
    }

    /// Printable ASCII without a separator, not starting with `.` or `-`, not ending with `.`,
    /// short enough: every step of ``sanitizeInFull(_:)`` leaves such a name as it is, and it
    /// is what most URLs and servers suggest.
    static func isClean(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last, bytes.count <= maximumBytes,
                first != UInt8(ascii: "."), first != UInt8(ascii: "-"), last != UInt8(ascii: ".")
            else { return false }
            return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") }
        }
    }

    static func sanitizeInFull(_ suggestion: String) -> String? {
        // Only the last path component counts: "../../etc/passwd" and "/etc/passwd" give "passwd".
        // Invalid UTF-8 from a server arrives as U+FFFD; it becomes "_" rather than a box.
        var cleaned = TerminalText.sanitize(suggestion, replacement: "")
        if cleaned.unicodeScalars.contains("\u{FFFD}") {
            cleaned = String(String.UnicodeScalarView(cleaned.unicodeScalars.map { $0 == "\u{FFFD}" ? "_" : $0 }))
        }
        let lastComponent = cleaned.lastComponent(separatedBy: "/", or: "\\") ?? ""
        var name = lastComponent.trimmingCharacters(where: { $0 == " " || $0 == "." || $0 == "\u{A0}" })
        name = String(name.drop(while: { $0 == "." || $0 == "-" }))
        guard !name.isEmpty else { return nil }
        return truncate(name, toBytes: maximumBytes)
    }

    /// Cuts `name` on a character boundary to at most `limit` UTF-8 bytes, keeping a short
    /// extension whole, a compressed type's two suffixes included (``FileNaming``'s split).
    public static func truncate(_ name: String, toBytes limit: Int) -> String {
        guard name.utf8.count > limit else { return name }
        var stem = name
        var ext = ""
        let (before, suffix) = FileNaming.splitExtension(name)
        if !suffix.isEmpty, suffix.count <= 16 {
            stem = before
            ext = suffix
        }
        let budget = limit - ext.utf8.count
        var cut = ""
        for character in stem {
            if cut.utf8.count + character.utf8.count > budget { break }
            cut.append(character)
        }
        return cut + ext
    }
}

extension String {
    /// The last non-empty part between the ASCII separators, as `split(whereSeparator:).last`
    /// gives it, without building every part first (a name is taken from each download's URL).
    public func lastComponent(separatedBy first: Unicode.Scalar, or second: Unicode.Scalar? = nil) -> String? {
        let second = second ?? first
        precondition(first.isASCII && second.isASCII)
        let (a, b) = (UInt8(first.value), UInt8(second.value))
        var text = self
        // In ASCII text every byte is a Character ("\r\n" aside, never a separator): the bytes
        // can be cut directly. Other text is cut by Character, where "/" + a combining mark is
        // not a separator.
        let ascii: String?? = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .none }
            var end = bytes.count
            while end > 0, bytes[end - 1] == a || bytes[end - 1] == b { end -= 1 }
            guard end > 0 else { return .some(nil) }
            var start = end
            while start > 0, bytes[start - 1] != a, bytes[start - 1] != b { start -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        if let ascii { return ascii }
        let (x, y) = (Character(first), Character(second))
        return split(whereSeparator: { $0 == x || $0 == y }).last.map(String.init)
    }
}
