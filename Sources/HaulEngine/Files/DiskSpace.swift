#if canImport(Glibc)
import Glibc
#endif

enum DiskSpace {
    /// Bytes an unprivileged writer can still use in the file system holding `path`.
    static func available(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// What a transfer of `remaining` more bytes into `directory` lacks, or nil when it fits.
    static func shortfall(writing remaining: Int64, into directory: String) -> Int64? {
        guard let free = available(at: directory), free < remaining else { return nil }
        return remaining - free
    }
}
