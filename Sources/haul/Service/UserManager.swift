import FoundationEssentials
import HaulCore

/// The user's systemd manager, reached through `systemctl --user` (whichever `systemctl` is
/// first on `PATH`) and the linger flag `loginctl enable-linger` sets.
struct UserManager {
    let environment: [String: String]

    struct Outcome {
        let status: Int32
        let output: String
    }

    /// Runs `systemctl --user ARGUMENTS`, its output (both streams) trimmed.
    func systemctl(_ arguments: [String]) -> Outcome {
        guard let program = ProcessLauncher.locate("systemctl", environment: environment) else {
            return Outcome(status: 127, output: "systemctl is not installed")
        }
        do {
            let (status, output) = try ProcessLauncher.run([program, "--user"] + arguments, environment: environment)
            return Outcome(status: status, output: output.trimmed())
        } catch {
            return Outcome(status: 127, output: error.description)
        }
    }

    /// Nil when a user manager answers; else why not, in a sentence.
    func unavailable() -> String? {
        let answer = systemctl(["show-environment"])
        guard answer.status != 0 else { return nil }
        let why = answer.output.split(separator: "\n").first.map(String.init) ?? "exit status \(answer.status)"
        return "no systemd user manager runs for this user (systemctl --user: \(why))"
    }

    /// Whether the user's manager starts at boot and outlives their sessions.
    func isLingering() -> Bool {
        guard let user = environment["USER"] ?? environment["LOGNAME"] else { return false }
        return FileManager.default.fileExists(atPath: "/var/lib/systemd/linger/\(user)")
    }
}
