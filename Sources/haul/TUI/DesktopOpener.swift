import FoundationEssentials
import HaulCore

/// `o` and `O` in the UI: hands a file or folder to the desktop's handler, `xdg-open`, run
/// directly with the path as its one argument (never through a shell, so no name is ever read as
/// a command) in a session of its own, with its output discarded.
enum DesktopOpener {
    static let command = "xdg-open"

    /// Starts the opener for `path`; `report` hears, on another thread, why it could not (in one
    /// sentence naming the command it tried).
    static func open(_ path: String, report: @escaping @Sendable (String) -> Void) {
        let environment = ProcessInfo.processInfo.environment
        let shown = "\(command) \(TerminalText.sanitize(path))"
        guard ProcessLauncher.isInstalled(command, environment: environment) else {
            return report("no desktop opener here: tried \(shown) (\(command) is not installed)")
        }
        do {
            let pid = try ProcessLauncher.spawn([command, path], environment: environment, newSession: true)
            ProcessLauncher.reap(pid) { status in
                if status != 0 { report("tried \(shown): it exited with \(status) (no desktop?)") }
            }
        } catch {
            report("tried \(shown): \(error.description)")
        }
    }
}
