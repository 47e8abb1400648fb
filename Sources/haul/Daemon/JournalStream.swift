import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a descriptor is connected to systemd's journal: `JOURNAL_STREAM` names the
/// `device:inode` of the stream the manager connected, and only a descriptor that is still that
/// stream (not redirected since) gets the `<N>` priority prefixes journald reads.
enum JournalStream {
    /// The priorities haul logs at (syslog's numbers).
    enum Priority: Int {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6

        var prefix: String { "<\(rawValue)>" }
    }

    private static let stream: (device: UInt64, inode: UInt64)? = {
        guard let text = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        return (device, inode)
    }()

    /// Whether `fd` writes to the journal.
    static func isJournal(_ fd: Int32) -> Bool {
        guard let stream else { return false }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        return UInt64(info.st_dev) == stream.device && UInt64(info.st_ino) == stream.inode
    }

    static let stderrIsJournal = isJournal(STDERR_FILENO)

    /// The prefix for a line of `priority` written to standard error ("" when it is not the journal).
    static func prefix(_ priority: Priority) -> String { stderrIsJournal ? priority.prefix : "" }
}
