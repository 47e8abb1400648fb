/// The file locks the kernel lists in `/proc/locks`: who holds an `flock` on a given file.
///
/// A line reads `1: FLOCK  ADVISORY  WRITE 19768 fe:00:16293898 0 EOF`: the pid of the process
/// that took the lock, then the file as major and minor device number (hex) and inode (decimal).
/// A process waiting for a lock is listed with `->` after the number and holds nothing.
enum ProcLocks {
    /// What `/proc/locks` says about one file.
    enum Answer: Equatable {
        /// An `flock` on it is held by `pid` (0 or less when the holder is in another pid namespace).
        case held(pid: Int32)
        case free
    }

    /// The file's `flock` holder according to `text` (the contents of `/proc/locks`).
    static func holder(in text: Substring, major: UInt32, minor: UInt32, inode: UInt64) -> Answer {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3,
                UInt32(file[0], radix: 16) == major, UInt32(file[1], radix: 16) == minor, UInt64(file[2]) == inode
            else { continue }
            return .held(pid: Int32(fields[4]) ?? 0)
        }
        return .free
    }
}
