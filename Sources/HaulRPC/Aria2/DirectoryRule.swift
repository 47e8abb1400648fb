import FoundationEssentials
import HaulCore

/// Where a call may put files: in the download directory or a directory the user allowed, after
/// `..` and symbolic links are resolved. aria2 lets any call write anywhere, which is how its
/// RPC has been used to overwrite `~/.ssh/authorized_keys`.
public enum DirectoryRule {
    /// Whether `path` (absolute) lies in one of `roots` or is one.
    public static func allows(_ path: String, roots: [String]) -> Bool {
        let resolved = resolve(path)
        return roots.contains { root in
            let base = resolve(root)
            return PathText.isAtOrBelow(resolved, base)
        }
    }

    /// `path` with `.` and `..` taken out and the links of the part that exists followed.
    static func resolve(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for part in rest { resolved.appendPathComponent(part) }
        return resolved.standardizedFileURL.path
    }
}
