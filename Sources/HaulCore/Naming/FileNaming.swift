import Foundation

/// Decides the name a download's file gets.
public enum FileNaming {
    /// The fallback when neither the server nor the URL suggests a usable name.
    public static let fallbackName = "download"

    /// `Content-Disposition` first, then the last URL path segment (percent-decoded), then "download".
    public static func suggestedName(contentDisposition: String?, url: String) -> String {
        if let header = contentDisposition, let suggestion = ContentDisposition.fileName(from: header),
           let safe = FileNameSanitizer.sanitize(suggestion) {
            return safe
        }
        if let fromURL = nameFromURL(url), let safe = FileNameSanitizer.sanitize(fromURL) {
            return safe
        }
        return fallbackName
    }

    static func nameFromURL(_ url: String) -> String? {
        guard let parts = URLParts(url) else { return nil }
        let segment = parts.path.lastComponent(separatedBy: "/") ?? ""
        guard !segment.isEmpty else { return nil }
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

    /// "a.tar.gz" → ("a", ".tar.gz"); "notes" → ("notes", "").
    static func splitExtension(_ name: String) -> (String, String) {
        let lower = name.lowercased()
        for compound in [".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst"] where lower.hasSuffix(compound) && lower.count > compound.count {
            let cut = name.index(name.endIndex, offsetBy: -compound.count)
            return (String(name[..<cut]), String(name[cut...]))
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return (String(name[..<dot]), String(name[dot...]))
        }
        return (name, "")
    }
}
