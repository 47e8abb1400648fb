/// Where a download goes when no folder was given: the first rule that matches its name (or
/// its host) names the folder; none matching, the download directory. Kept in a small text file
/// (see ``FolderRulesFile``), one rule per line: `PATTERN = FOLDER`.
public struct FolderRules: Sendable, Equatable {
    /// What a rule matches.
    public enum Pattern: Sendable, Equatable {
        /// File-name globs (`*` and `?`, any case), any of which matches: `*.iso,*.img`.
        case names([String])
        /// A built-in group of kinds of files, by extension.
        case group(FileGroup)
        /// A host-name glob: `host:*.example.org` (which `example.org` itself matches too).
        case host(String)

        /// The pattern as written: a group's name, `host:GLOB`, or globs separated by commas.
        public init?(_ text: String) {
            let text = text.trimmed()
            guard !text.isEmpty else { return nil }
            if let group = FileGroup(rawValue: text.lowercased()) {
                self = .group(group)
            } else if text.lowercased().hasPrefix("host:") {
                let host = text.dropFirst(5).trimmed().lowercased()
                guard !host.isEmpty else { return nil }
                self = .host(host)
            } else {
                let globs = text.split(separator: ",").map { $0.trimmed() }
                guard !globs.isEmpty, globs.allSatisfy({ !$0.isEmpty }) else { return nil }
                self = .names(globs)
            }
        }

        public var text: String {
            switch self {
            case .names(let globs): return globs.joined(separator: ",")
            case .group(let group): return group.rawValue
            case .host(let host): return "host:" + host
            }
        }

        /// Whether a file called `name` from `host` (nil: not known) matches.
        public func matches(name: String, host: String?) -> Bool {
            switch self {
            case .names(let globs): return globs.contains { Glob.matches($0.lowercased(), name.lowercased()) }
            case .group(let group): return group.contains(name)
            case .host(let pattern):
                guard let host else { return false }
                return HostPattern.matches(pattern, host: host)
            }
        }
    }

    public struct Rule: Sendable, Equatable {
        public var pattern: Pattern
        /// An absolute folder, or one under `~/`.
        public var folder: String

        public init(pattern: Pattern, folder: String) {
            self.pattern = pattern
            self.folder = folder
        }
    }

    public var rules: [Rule]

    public init(_ rules: [Rule] = []) { self.rules = rules }

    /// The first matching rule's folder (`~/` made `home`), nil when none matches.
    public func folder(name: String?, host: String?, home: String) -> String? {
        let name = name ?? ""
        guard let rule = rules.first(where: { $0.pattern.matches(name: name, host: host) }) else { return nil }
        if rule.folder == "~" { return home }
        if rule.folder.hasPrefix("~/") { return home + rule.folder.dropFirst() }
        return rule.folder
    }
}

/// The built-in groups a rule may name.
public enum FileGroup: String, Sendable, CaseIterable {
    case video, audio, archive, document, image
    case diskImage = "disk image"
    case program

    /// The extensions of the group, lower case.
    public var extensions: Set<String> {
        switch self {
        case .video:
            return ["mp4", "mkv", "webm", "avi", "mov", "m4v", "wmv", "flv", "mpg", "mpeg", "ts", "3gp", "ogv"]
        case .audio: return ["mp3", "flac", "ogg", "opus", "m4a", "aac", "wav", "wma", "aiff", "ape", "mka"]
        case .archive:
            return [
                "zip", "tar", "gz", "tgz", "bz2", "tbz2", "xz", "txz", "zst", "7z", "rar", "lz", "lzma", "z", "cab",
            ]
        case .document:
            return [
                "pdf", "doc", "docx", "odt", "rtf", "txt", "md", "epub", "mobi", "xls", "xlsx", "ods", "ppt", "pptx",
                "odp", "csv",
            ]
        case .image: return ["jpg", "jpeg", "png", "gif", "webp", "svg", "bmp", "tif", "tiff", "heic", "avif", "ico"]
        case .diskImage: return ["iso", "img", "dmg", "qcow2", "vdi", "vmdk", "vhd", "vhdx"]
        case .program: return ["deb", "rpm", "apk", "appimage", "exe", "msi", "flatpak", "snap", "jar", "run"]
        }
    }

    /// Whether `name`'s extension (after its last dot; none for a name without one) is the group's.
    public func contains(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}

/// `*` (any run of characters) and `?` (one character) over whole characters, so a CJK name
/// matches as it reads.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern)
        let t = Array(text)
        var pi = 0
        var ti = 0
        var star: Int?
        var resume = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                resume = ti
                pi += 1
            } else if let star {
                pi = star + 1
                resume += 1
                ti = resume
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
