import CLinux

#if canImport(Glibc)
    import Glibc
#endif

enum DiskSpace {
    /// Bytes an unprivileged writer can still use in the file system holding `path`.
    static func available(at path: String) -> Int64? {
        Volume(holding: path)?.available
    }

    /// What a transfer of `remaining` more bytes into `directory` lacks, or nil when it fits.
    static func shortfall(writing remaining: Int64, into directory: String) -> Int64? {
        Volume(holding: directory)?.shortfall(writing: remaining)
    }

    /// What a transfer needs to know about the file system it writes into (one `statfs`).
    struct Volume: Sendable {
        /// Bytes an unprivileged writer can still use.
        let available: Int64
        /// tmpfs or ramfs: its files live in memory, so there is nothing for `fsync` to make durable.
        let inMemory: Bool

        init(available: Int64, inMemory: Bool) {
            self.available = available
            self.inMemory = inMemory
        }

        init?(holding path: String) {
            var info = statfs()
            guard haul_statfs(path, &info) == 0 else { return nil }
            let unit = info.f_frsize != 0 ? Int64(info.f_frsize) : Int64(info.f_bsize)
            available = Int64(info.f_bavail) * unit
            inMemory = [Self.tmpfsMagic, Self.ramfsMagic].contains(UInt32(truncatingIfNeeded: info.f_type))
        }

        /// What writing `remaining` more bytes lacks, or nil when it fits.
        func shortfall(writing remaining: Int64) -> Int64? {
            available < remaining ? remaining - available : nil
        }

        // From <linux/magic.h>.
        private static let tmpfsMagic: UInt32 = 0x0102_1994
        private static let ramfsMagic: UInt32 = 0x8584_58f6
    }
}
