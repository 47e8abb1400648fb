import FoundationEssentials
import HaulRemote

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `haul daemon` in a session of its own to take the downloads over from a TUI that is
/// quitting, and waits until it serves the state file.
enum DaemonLauncher {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Returns the daemon's pid once its socket answers (the caller has released the state file).
    static func launch(_ options: StateOptions, hookArguments: [String]) async throws -> pid_t {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var arguments = [executable, "daemon", "--exit-when-idle", "--state", options.statePath]
        arguments += hookArguments
        let log = DaemonLog.path(statePath: options.statePath)
        DaemonLog.rotate(log)
        let pid = try ProcessLauncher.spawn(arguments, environment: options.environment, output: log, newSession: true)
        for _ in 0..<100 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                // Exit 0: everything finished before it could be reached.
                if status == 0 { return pid }
                throw Failure(description: "haul daemon exited at once (see \(log))")
            }
            if let owner = try? await RemoteEngine.connect(options.socketLocation) {
                owner.close()
                return owner.pid
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "haul daemon (pid \(pid)) did not answer within 5 s (see \(log))")
    }
}
