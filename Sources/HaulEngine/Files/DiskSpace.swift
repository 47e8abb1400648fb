import CLinux
import FoundationEssentials

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

    /// The bytes the file or folder at `path` takes on disk (its allocated blocks, every file
    /// below a folder; links not followed). A torrent's pieces are written where they fall, and
    /// what is written takes room before its piece is whole: the room the rest needs is its size
    /// less this, not less the pieces counted done.
    static func allocatedBytes(at path: String) -> Int64 {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return Int64(info.st_blocks) * 512
        case S_IFDIR:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.reduce(0) { $0 + allocatedBytes(at: path + "/" + $1) }
        default:
            return 0
        }
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
