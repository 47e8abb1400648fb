import Foundation
import HaulCore

/// A real terminal for end-to-end tests: a private tmux server (its socket in a temp
/// directory), driven with send-keys and read with capture-pane.
public final class TmuxSession: Sendable {
    public let socket: String
    private let workDirectory: String

    /// Starts `command` (run by /bin/sh inside the pane) in a `width`x`height` window.
    public init(
        command: String, width: Int = 100, height: Int = 30, environment: [String: String], workDirectory: String
    ) async throws {
        socket = workDirectory + "/tmux.sock"
        self.workDirectory = workDirectory
        var arguments = ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments.append(command)
        let result = try await Self.tmux(arguments, workDirectory: workDirectory)
        guard result.status == 0 else { throw ChildProcess.SpawnError(description: "tmux failed: \(result.stderr)") }
        _ = try await Self.tmux(
            ["-S", socket, "set-option", "-g", "remain-on-exit", "on"], workDirectory: workDirectory)
    }

    public static var executable: String { "/usr/bin/tmux" }

    static func tmux(_ arguments: [String], workDirectory: String) async throws -> CommandResult {
        // SHELL: tmux runs the pane's command with it, else with the user's login shell, which for
        // a system user running the suite (nobody) is nologin: every pane would exit at once.
        try await ChildProcess.run(
            executable, arguments,
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/sh"],
            in: workDirectory, timeout: 20
        )
    }

    /// Sends keys as tmux names them ("Enter", "C-c", "PageDown") or literal text with `literal`.
    public func send(_ keys: String..., literal: Bool = false) async throws {
        _ = try await Self.tmux(
            ["-S", socket, "send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys, workDirectory: workDirectory)
    }

    /// The visible text of the pane.
    public func capture() async throws -> String {
        try await Self.tmux(["-S", socket, "capture-pane", "-p", "-t", "0"], workDirectory: workDirectory).stdout
    }

    public func resize(width: Int, height: Int) async throws {
        _ = try await Self.tmux(
            ["-S", socket, "resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"],
            workDirectory: workDirectory)
    }

    /// Which mouse reports the program in the pane asked for: any button (1000 and up) and SGR
    /// (1006), as tmux tracks them.
    public func mouseModes() async throws -> (any: Bool, sgr: Bool) {
        let r = try await Self.tmux(
            ["-S", socket, "display-message", "-p", "-t", "0", "#{mouse_any_flag} #{mouse_sgr_flag}"],
            workDirectory: workDirectory)
        let flags = r.stdout.split(separator: " ").map { $0.trimmed() }
        return (flags.first == "1", flags.dropFirst().first == "1")
    }

    /// The pane's command has exited (tmux keeps the pane with remain-on-exit).
    public func paneIsDead() async throws -> Bool {
        let r = try await Self.tmux(
            ["-S", socket, "display-message", "-p", "-t", "0", "#{pane_dead}"], workDirectory: workDirectory)
        return r.stdout.trimmed() == "1"
    }

    /// Polls the pane until `predicate` holds; returns the last capture.
    @discardableResult
    public func waitFor(timeout: Double = 15, _ predicate: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try await capture()
            if predicate(last) { return last }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ChildProcess.SpawnError(description: "timed out waiting for the screen; last capture:\n\(last)")
    }

    public func kill() async {
        _ = try? await Self.tmux(["-S", socket, "kill-server"], workDirectory: workDirectory)
    }
}
