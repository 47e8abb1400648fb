#if canImport(Glibc)
    import Glibc
#endif

/// The log a daemon started by the UI writes to, beside the state file. Every launch appends to
/// it; one that has grown past `limit` is first moved to `PATH.1` (replacing the one before), so
/// the two together never hold much more than twice the limit however often the UI hands over.
enum DaemonLog {
    static let limit: Int64 = 1 << 20

    static func path(statePath: String) -> String { statePath + ".daemon.log" }

    /// Moves the log aside when it is over `limit`; a log that cannot be moved is appended to as before.
    static func rotate(_ path: String, limit: Int64 = limit) {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) > limit else { return }
        rename(path, path + ".1")
    }
}
