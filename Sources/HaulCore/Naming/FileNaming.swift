import Foundation

/// Decides the name a download's file gets.
public enum FileNaming {
    /// The fallback when neither the server nor the URL suggests a usable name.
    public static let fallbackName = "download"

    /// `Content-Disposition` first, then the last URL path segment (percent-decoded), then "download".
    public static func suggestedName(contentDisposition: String?, url: String) -> String {
        if let header = contentDisposition, let suggestion = ContentDisposition.fileName(from: header),
            let safe = FileNameSanitizer.sanitize(suggestion)
        {
            return safe
        }
        if let fromURL = nameFromURL(url), let safe = FileNameSanitizer.sanitize(fromURL) {
            return safe
        }
        return fallbackName
    }

    static func nameFromURL(_ url: String) -> String? {
        let segment: String
        if let plain = plainLastSegment(url) {
            guard let found = plain else { return nil }
            segment = found
        } else {
            guard let parts = URLParts(url) else { return nil }
            segment = parts.path.lastComponent(separatedBy: "/") ?? ""
        }
        guard !segment.isEmpty else { return nil }
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        guard let bytes = ContentDisposition.percentDecode(segment) else { return segment }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// For a URL ``PlainURLCheck`` accepts, whose path needs no encoding: the last non-empty
    /// segment of its path, found on its bytes (`.some(nil)` when there is none), as
    /// `URLParts` and `lastComponent` give it. nil for any other URL. Each download's name is
    /// taken from its URL twice (the engine's claim, the run's log), ~3,600 instructions a
    /// time through `URLParts`.
    static func plainLastSegment(_ url: String) -> String?? {
        var url = url
        return url.withUTF8 { bytes -> String?? in
            guard PlainURLCheck.isPlainHTTPURL(bytes) else { return nil }
            var i = bytes[4] | 0x20 == UInt8(ascii: "s") ? 8 : 7 // past "http://" or "https://"
            while i < bytes.count, bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: "?") { i += 1 }
            var end = i
            while end < bytes.count, bytes[end] != UInt8(ascii: "?") { end += 1 }
            while end > i, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
            var start = end
            while start > i, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
            guard start < end else { return .some(nil) }
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        }
    }

    /// `name.ext`, else `name (1).ext`, `name (2).ext`, … — the first for which `isTaken` is false.
    public static func uniqueName(_ name: String, isTaken: (String) -> Bool) -> String {
        guard isTaken(name) else { return name }
        let (stem, ext) = splitExtension(name)
        var n = 1
        while true {
            let candidate = "\(stem) (\(n))\(ext)"
            if !isTaken(candidate) { return candidate }
            n += 1
        }
    }

    /// Suffixes that compress the file named before them: "dataset.csv.gz" is a CSV file.
    static let compressionSuffixes: Set<String> = ["gz", "bz2", "xz", "zst", "lz", "lz4", "lzma", "br", "z"]

    /// "a.tar.gz" → ("a", ".tar.gz"), "dataset.csv.gz" → ("dataset", ".csv.gz"), "notes" →
    /// ("notes", ""). A compression suffix keeps the extension before it when that one looks like
    /// a file type (1–5 letters and digits, starting with a letter), so a second copy is
    /// "dataset (1).csv.gz", not "dataset.csv (1).gz"; "release-1.2.gz" stays ("release-1.2", ".gz").
    static func splitExtension(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        let last = name[name.index(after: dot)...]
        if compressionSuffixes.contains(last.lowercased()),
            let inner = name[..<dot].lastIndex(of: "."), inner != name.startIndex
        {
            let type = name[name.index(after: inner)..<dot]
            if (1...5).contains(type.count), type.first?.isLetter == true,
                type.allSatisfy(\.isASCIILetterOrDigit)
            {
                return (String(name[..<inner]), String(name[inner...]))
            }
        }
        return (String(name[..<dot]), String(name[dot...]))
    }
}

extension Character {
    fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
