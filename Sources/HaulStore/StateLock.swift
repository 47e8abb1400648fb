import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The lock that makes one process at a time the writer of a state file.
///
/// An `flock` on `<state>.lock`, which the kernel releases when the process dies, so a
/// `kill -9` never leaves a stale lock. The holder's pid is written into the file so the
/// refusal can say who holds it.
public final class StateLock: Sendable {
    public struct Held: Error, CustomStringConvertible, Equatable {
        public let statePath: String
        public let pid: Int32?
        public var description: String {
            let who = pid.map { "another haul (pid \($0))" } ?? "another haul"
            return "\(who) is already using the state file \(statePath); stop it first or use --state to choose another"
        }
    }

    public let path: String
    /// The locked descriptor, or -1 once released.
    private let fd: Mutex<Int32>

    /// Takes the lock or throws ``Held``.
    public init(statePath: String) throws {
        path = statePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AtomicFile.WriteError(description: "cannot open lock file \(path): \(AtomicFile.errnoText())")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let pid = Self.readPID(fd)
            close(fd)
            throw Held(statePath: statePath, pid: pid)
        }
        self.fd = Mutex(fd)
        ftruncate(fd, 0)
        let text = "\(getpid())\n"
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit { release() }

    /// Gives the lock up (idempotent); another process may take the state file from now on.
    public func release() {
        fd.withLock { fd in
            guard fd >= 0 else { return }
            ftruncate(fd, 0)
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    public var isHeld: Bool { fd.withLock { $0 >= 0 } }

    /// The pid of the process holding the lock, without touching the lock itself (so a reader
    /// never gets in a writer's way): the kernel's list of locks says whether anyone holds it.
    /// Where that list cannot be read, the pid written in the file, if that process is alive.
    public static func currentHolder(statePath: String) -> Int32? {
        let fd = open(statePath + ".lock", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) {
            // glibc's gnu_dev_major and gnu_dev_minor.
            let device = UInt64(info.st_dev)
            let major = UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff))
            let minor = UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~0xff))
            switch ProcLocks.holder(in: locks[...], major: major, minor: minor, inode: UInt64(info.st_ino)) {
            case .free:
                // Even if the pid in the file is alive: it is a killed holder's pid, reused.
                return nil
            case .held(let pid) where pid > 0:
                return pid
            case .held:
                // The holder is in another pid namespace; the file names it as it sees itself.
                return readPID(fd) ?? 0
            }
        }
        guard let pid = readPID(fd), pid > 0 else { return nil }
        guard kill(pid, 0) == 0 || errno == EPERM else { return nil }
        // A killed holder not yet reaped by its parent still answers `kill`, but holds nothing.
        return isZombie(pid) ? nil : pid
    }

    /// Whether `pid` has exited and waits to be reaped (state Z or X in `/proc/PID/stat`).
    static func isZombie(_ pid: Int32) -> Bool {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return false }
        // "PID (COMM) STATE …": COMM may hold spaces and parentheses, so the state follows the last ')'.
        guard let paren = buffer[..<n].lastIndex(of: UInt8(ascii: ")")), paren + 2 < n else { return false }
        let state = buffer[paren + 2]
        return state == UInt8(ascii: "Z") || state == UInt8(ascii: "X")
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[..<n], as: UTF8.self).trimmed())
    }
}
