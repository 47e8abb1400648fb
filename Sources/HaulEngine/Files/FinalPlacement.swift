import HaulCore

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

    /// `renameat2(RENAME_NOREPLACE)` where the kernel and file system have it (one call), else
    /// `link` + `unlink`, an atomic no-replace rename on file systems with hard links; where
    /// neither works, a checked `rename`.
    static func move(_ part: String, to final: String) -> Result {
        if let renameNoReplace {
            if renameNoReplace(AT_FDCWD, part, AT_FDCWD, final, renameNoReplaceFlag) == 0 { return .placed }
            let code = errno
            // EINVAL: this file system has no RENAME_NOREPLACE; ENOSYS: nor this kernel.
            if code == EEXIST { return .nameTaken }
            if code != EINVAL, code != ENOSYS { return .failed(FileError(operation: "rename", path: part, code: code)) }
        }
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

    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc has `renameat2` since 2.28, but Swift's Glibc module does not export it.
    private static let renameNoReplace: RenameAt2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2")
        .map { unsafeBitCast($0, to: RenameAt2.self) }
    private static let renameNoReplaceFlag: UInt32 = 1 // RENAME_NOREPLACE in <linux/fs.h>
}
