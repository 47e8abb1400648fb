import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn` and an empty signal mask.
///
/// `Foundation.Process` hands the child the test thread's blocked signals, so a child
/// started that way never sees SIGTERM or SIGWINCH; this one does.
public final class ChildProcess: Sendable {
    public let pid: pid_t

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` with `arguments`; stdin/stdout/stderr go to the given files (or /dev/null).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdin: String = "/dev/null", stdout: String = "/dev/null", stderr: String = "/dev/null"
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    public func signal(_ signo: Int32) {
        kill(pid, signo)
    }

    /// Whether it still runs (it has not exited, reaped or not).
    public var isRunning: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"), stat.index(close, offsetBy: 2) < stat.endIndex
        else { return false }
        // The state letter follows the command name's closing parenthesis: Z and X have exited.
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    /// Waits for the exit without blocking a thread; returns the exit code (128+N for signal N),
    /// or nil when `timeout` passed first.
    public func wait(timeout: Double = 120) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                let termsig = status & 0x7F
                return termsig == 0 ? (status >> 8) & 0xFF : 128 + termsig
            }
            if r < 0 { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Kills the process if it is still running and reaps it.
    public func terminate() async {
        kill(pid, SIGKILL)
        _ = await wait(timeout: 10)
    }
}

/// The result of running a command to completion.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

extension ChildProcess {
    /// Runs a command to completion, capturing its output.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], in directory: String,
        timeout: Double = 120
    ) async throws -> CommandResult {
        let stamp = UUID().uuidString
        let out = "\(directory)/.out-\(stamp)"
        let err = "\(directory)/.err-\(stamp)"
        defer {
            unlink(out)
            unlink(err)
        }
        let child = try ChildProcess(executable, arguments, environment: environment, stdout: out, stderr: err)
        guard let status = await child.wait(timeout: timeout) else {
            await child.terminate()
            throw SpawnError(description: "\(executable) \(arguments) did not finish in \(timeout) s")
        }
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return CommandResult(status: status, stdout: stdout, stderr: stderr)
    }
}
