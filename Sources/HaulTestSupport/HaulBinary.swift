import Foundation

/// The `haul` executable that `swift build` put beside the test bundle.
public enum HaulBinary {
    public static var path: String {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On Linux the test runner is `<bin>/haulPackageTests.xctest`; the executable sits in `<bin>`.
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("haul").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("haul").path
    }

    /// An environment for running haul in isolation under `home`.
    public static func environment(home: String, extra: [String: String] = [:]) -> [String: String] {
        var env = [
            "HOME": home,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "HAUL_STATE": home + "/state/state.json",
            "XDG_DOWNLOAD_DIR": home + "/Downloads",
        ]
        for (key, value) in extra { env[key] = value }
        return env
    }
}
