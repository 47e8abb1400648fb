import FoundationEssentials
import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// Starts programs directly (never through a shell) with an empty signal mask, default
/// signal dispositions and no descriptors but 0–2, so a child never holds haul's sockets
/// or state lock.
enum ProcessLauncher {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `POSIX_SPAWN_SETSID` (glibc, needs `_GNU_SOURCE`, which the Swift Glibc module does not set).
    private static let setSessionFlag: Int32 = 0x80

    /// Starts `arguments[0]` (looked up in `PATH` when it has no slash), its output appended to
    /// the file `output`, or written to `outputDescriptor` when one is given. With `newSession`
    /// the child leaves haul's session and terminal: it outlives the TUI and ignores its hangup.
    /// With `newProcessGroup` it leads a group of its own, which a signal to `-pid` reaches whole.
    @discardableResult
    static func spawn(
        _ arguments: [String], environment: [String: String], output: String = "/dev/null",
        outputDescriptor: Int32? = nil, newSession: Bool = false, newProcessGroup: Bool = false
    ) throws(Failure) -> pid_t {
        precondition(!arguments.isEmpty)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let outputDescriptor {
            posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        }
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeDescriptors(from: 3, in: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= setSessionFlag }
        if newProcessGroup { flags |= Int32(POSIX_SPAWN_SETPGROUP) }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child = pid_t()
        let result = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return child
    }

    /// Runs `arguments` to its end: its exit status (128+N for signal N) and what it wrote to
    /// its output and error streams together.
    static func run(_ arguments: [String], environment: [String: String]) throws(Failure) -> (Int32, String) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
        else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(errno)))")
        }
        let pid: pid_t
        do {
            pid = try spawn(arguments, environment: environment, outputDescriptor: ends[1])
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(ends[0], &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            output += buffer[..<n]
        }
        close(ends[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (exitCode(status), String(decoding: output, as: UTF8.self))
    }

    /// Reaps `pid` on a thread of its own; `done` gets the exit status (128+N for signal N).
    static func reap(_ pid: pid_t, done: @escaping @Sendable (Int32) -> Void = { _ in }) {
        DetachedThread.start {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            done(exitCode(status))
        }
    }

    /// A `waitpid` status as a shell shows it: the exit status, or 128+N for signal N.
    private static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Whether `name` is an executable in `PATH`.
    static func isInstalled(_ name: String, environment: [String: String]) -> Bool {
        locate(name, environment: environment) != nil
    }

    /// The first executable `name` in `PATH`.
    static func locate(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Closes every descriptor from `first` on in the child (`posix_spawn_file_actions_addclosefrom_np`,
    /// glibc 2.34+, looked up at run time because the Swift Glibc module hides GNU extensions).
    /// Without it, haul's own descriptors are close-on-exec anyway.
    private static func closeDescriptors(from first: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, first)
    }
}
