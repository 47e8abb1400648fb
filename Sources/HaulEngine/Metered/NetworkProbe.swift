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
        } else if let busctl = ["/usr/bin/busctl", "/bin/busctl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            command = [busctl, "--system", "get-property", "org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager",
                       "org.freedesktop.NetworkManager", "Metered"]
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
        do { try process.run() } catch { return .unknown }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning {
            process.terminate()
            return .unknown
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else { return .unknown }
        return MeteredVerdict(probeOutput: String(decoding: data, as: UTF8.self))
    }
}
