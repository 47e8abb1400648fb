/// Path arithmetic on text, without touching the file system.
public enum PathText {
    /// Everything before the last `/` ("" when there is none or it is the first character).
    public static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }
}

extension PathText {
    /// The folder holding `path`, to open or create: "." for a bare name, "/" for a name in the root.
    public static func folder(of path: String) -> String {
        guard path.contains("/") else { return "." }
        let directory = directory(of: path)
        return directory.isEmpty ? "/" : directory
    }

    /// The part after the last `/` (the whole text when there is none).
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `name` inside `folder`, with one `/` between them.
    public static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") || folder.isEmpty ? folder + name : folder + "/" + name
    }

    /// Whether `path` is `folder` or lies below it (by text: links are not followed).
    public static func isAtOrBelow(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `path` and every folder it is in, innermost first, up to "/" (an absolute path).
    public static func enclosingFolders(of path: String) -> [String] {
        var folders = [path]
        var current = path
        while current != "/", current.contains("/") {
            current = folder(of: current)
            folders.append(current)
        }
        return folders
    }

    /// `~` and `~/…` with the user's home folder in place of the tilde; other text unchanged.
    public static func expandingTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        return path.hasPrefix("~/") ? joined(home, String(path.dropFirst(2))) : path
    }
}
