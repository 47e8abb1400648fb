/// Path arithmetic on text, without touching the file system.
public enum PathText {
    /// `path` (absolute) with empty and `.` components dropped and each `..` taking the one
    /// before it away (never above `/`); no trailing slash. What Foundation's
    /// `standardizedFileURL.path` gives for an absolute path, for a fraction of its cost: the
    /// state path is worked out at every start of every command.
    public static func standardized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Everything before the last `/` ("" when there is none or it is the first character).
    public static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }
}
