import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs one hook: started directly (never through a shell), its output read line by line and
/// handed on (to the daemon's log file or the journal, the TUI's message line, a command's
/// standard error), its problems to the log; stopped with SIGTERM
/// when it runs past its time limit and with SIGKILL 5 s later, with every process it started.
final class HookRunner: Sendable {
    let label: String
    private let pid: pid_t
    private struct Progress {
        var finished = false
        /// Whether haul stopped it (its exit status then says nothing new).
        var stopped = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Waits out the time limit; cancelled when the hook ends first.
        var limit: Task<Void, Never>?
    }
    private let state = Mutex(Progress())

    /// Starts `arguments`; throws when the program cannot be started.
    init(
        _ arguments: [String], label: String, environment: [String: String], timeLimit seconds: Int,
        log: @escaping @Sendable (String) -> Void, output: @escaping @Sendable (String) -> Void
    ) throws(ProcessLauncher.Failure) {
        self.label = label
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw ProcessLauncher.Failure(description: "cannot start \(label): no pipe for its output")
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        defer { close(ends[1]) }
        do {
            pid = try ProcessLauncher.spawn(
                arguments, environment: environment, outputDescriptor: ends[1], newProcessGroup: true)
        } catch {
            close(ends[0])
            throw error
        }
        let reader = ends[0]
        DetachedThread.start { Self.relay(reader, label: label, log: output) }
        let limit = Task { [self] in
            try? await Task.sleep(for: .seconds(seconds))
            guard signal(SIGTERM) else { return }
            log("\(label) ran longer than its time limit (\(seconds) s) and was stopped")
            try? await Task.sleep(for: .seconds(5))
            _ = signal(SIGKILL)
        }
        state.withLock { $0.limit = limit }
        ProcessLauncher.reap(pid) { [self] status in
            let ended = state.withLock { state in
                state.finished = true
                defer {
                    state.waiters = []
                    state.limit = nil
                }
                return state
            }
            ended.limit?.cancel()
            if status != 0, !ended.stopped { log("\(label) exited with status \(status)") }
            for waiter in ended.waiters { waiter.resume() }
        }
    }

    /// Sends `number` while the hook runs (never to a pid reused after it ended); false when it has ended.
    @discardableResult
    func signal(_ number: Int32) -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            kill(-pid, number) // the whole group: a script's own children too
            state.stopped = true
            return true
        }
    }

    /// Returns once the hook has ended.
    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if done { continuation.resume() }
        }
    }

    /// Logs each line the hook writes (sanitized: it is another program's text), until it closes its output.
    private static func relay(_ fd: Int32, label: String, log: @Sendable (String) -> Void) {
        defer { close(fd) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if !line.isEmpty { log("\(label): \(TerminalText.sanitize(line))") }
            }
            if pending.count > 4096 {
                log("\(label): \(TerminalText.sanitize(String(decoding: pending, as: UTF8.self)))")
                pending = []
            }
        }
        if !pending.isEmpty { log("\(label): \(TerminalText.sanitize(String(decoding: pending, as: UTF8.self)))") }
    }
}
