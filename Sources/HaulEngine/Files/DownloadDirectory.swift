import FoundationEssentials
import Glibc
import HaulCore

/// Folders downloads land in, made on request as `wget -P`, `aria2c -d` and `curl --create-dirs`
/// make them.
public enum DownloadDirectory {
    /// Creates `path` (absolute) and every missing folder above it. Says in one sentence why not:
    /// most often a path that runs through a file.
    public static func create(_ path: String) throws(InputError) {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory { return }
        let shown = TerminalText.sanitize(path)
        let (deepest, file) = walk(path)
        if let file {
            let what = file == path ? "it is a file" : "\(TerminalText.sanitize(file)) is a file, not a folder"
            throw InputError("cannot create the folder \(shown): \(what)")
        }
        guard access(deepest, W_OK | X_OK) == 0 else {
            throw InputError("cannot create the folder \(shown): \(TerminalText.sanitize(deepest)) is not writable")
        }
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o777) != 0, errno != EEXIST {
                throw InputError("cannot create the folder \(shown): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The deepest folder on the way to `path` that exists, and the first path on the way that
    /// exists and is not a folder.
    private static func walk(_ path: String) -> (deepest: String, file: String?) {
        var prefix = ""
        var deepest = "/"
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: prefix, isDirectory: &isDirectory) else { break }
            if !isDirectory { return (deepest, prefix) }
            deepest = prefix
        }
        return (deepest, nil)
    }
}
