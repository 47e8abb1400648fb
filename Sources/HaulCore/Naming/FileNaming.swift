import FoundationEssentials

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

    /// The last segment of the URL's path, percent-decoded; nil when it has none.
    public static func nameFromURL(_ url: String) -> String? {
        if MagnetLink.isMagnet(url) { return MagnetLink.displayName(url) }
        // Every download's URL is canonical once added: its name is cut from it without a parse,
        // which was most of `haul ls`'s time for 100,000 downloads not yet named.
        let path: String
        if let target = DownloadURL.canonicalTarget(url) {
            path = String(target[..<(target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)])
        } else if let parts = URLParts(url) {
            path = parts.path
        } else {
            return nil
        }
        let segment = path.lastComponent(separatedBy: "/") ?? ""
        guard !segment.isEmpty else { return nil }
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        guard let bytes = ContentDisposition.percentDecode(segment) else { return segment }
        return String(decoding: bytes, as: UTF8.self)
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
