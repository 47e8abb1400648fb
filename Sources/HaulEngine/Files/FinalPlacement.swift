#if canImport(Glibc)
import Glibc
#endif

/// Moves a completed `.part` to its final name without ever replacing an existing file.
enum FinalPlacement {
    enum Result {
        case placed
        /// Something already has that name; pick another and try again.
        case nameTaken
        case failed(FileError)
    }

    /// `link` + `unlink` is an atomic no-replace rename on file systems with hard links;
    /// where links are not supported, fall back to a checked `rename`.
    static func move(_ part: String, to final: String) -> Result {
        if link(part, final) == 0 {
            unlink(part)
            return .placed
        }
        let code = errno
        switch code {
        case EEXIST:
            return .nameTaken
        case EPERM, EOPNOTSUPP, EMLINK, EXDEV:
            if access(final, F_OK) == 0 { return .nameTaken }
            return rename(part, final) == 0 ? .placed : .failed(FileError(operation: "rename", path: part, code: errno))
        default:
            return .failed(FileError(operation: "rename", path: part, code: code))
        }
    }
}
