import Foundation
import HaulCore

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        // Told when the probe exits, rather than polled for: `haul run` waits for the verdict
        // before it starts anything, and a 10 ms poll made that wait 10 ms for a 3 ms probe.
        let (exit, exited) = AsyncStream<Never>.makeStream()
        process.terminationHandler = { _ in exited.finish() }
        do { try process.run() } catch { return .unknown }
        guard await TimeLimit.run(.seconds(2), { for await _ in exit {} }) else {
            // SIGKILL, not terminate()'s SIGTERM: Foundation starts children with every signal
            // blocked (swift-corelibs-foundation #4772), so a hung probe outlived SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            return .unknown
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else { return .unknown }
        return MeteredVerdict(probeOutput: String(decoding: data, as: UTF8.self))
    }
}
