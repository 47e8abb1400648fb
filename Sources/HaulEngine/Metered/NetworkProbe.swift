import FoundationEssentials
import HaulCore
import Subprocess
import SystemPackage

/// Asks NetworkManager whether the network is metered.
///
/// Runs `HAUL_METERED_PROBE` when set (a command whose output is parsed like the real
/// probe's; tests flip it), else `busctl` for the `Metered` property of
/// `org.freedesktop.NetworkManager`. No NetworkManager means `.unknown`.
struct NetworkProbe: Sendable {
    let command: [String]?

    init(environment: [String: String]) {
        if let custom = environment["HAUL_METERED_PROBE"], !custom.isEmpty {
            command = ["/bin/sh", "-c", custom]
        } else if let busctl = ["/usr/bin/busctl", "/bin/busctl"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) {
            command = [
                busctl, "--system", "get-property", "org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager",
                "org.freedesktop.NetworkManager", "Metered",
            ]
        } else {
            command = nil
        }
    }

    /// Runs the probe (at most ~2 s) and parses its answer.
    func check() async -> MeteredVerdict {
        guard let command else { return .unknown }
        let output = await withTaskGroup(of: String?.self) { group in
            group.addTask { await Self.output(of: command) }
            group.addTask {
                try? await Task.sleep(for: .seconds(2))
                return nil
            }
            let first = await group.next() ?? nil
            // A probe still running is cancelled, which Subprocess ends with SIGKILL.
            group.cancelAll()
            return first
        }
        return output.map(MeteredVerdict.init(probeOutput:)) ?? .unknown
    }

    /// What `command` prints when it exits with status 0, else nil.
    private static func output(of command: [String]) async -> String? {
        let result = try? await Subprocess.run(
            .path(FilePath(command[0])), arguments: Arguments(Array(command.dropFirst())),
            environment: .inherit.updating(["LC_ALL": "C"]), output: .string(limit: 64 * 1024))
        guard let result, result.terminationStatus.isSuccess else { return nil }
        return result.standardOutput
    }
}
