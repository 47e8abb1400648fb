import Foundation

/// Numbers the reliability suite reports: when `HAUL_FIGURES_FILE` is set, each test appends
/// a Markdown table row there, and `make figures` puts the rows into the README.
public enum Figures {
    public static func record(_ what: String, _ tried: String, _ outcome: String) {
        guard let path = ProcessInfo.processInfo.environment["HAUL_FIGURES_FILE"], !path.isEmpty else { return }
        let line = "| \(what) | \(tried) | \(outcome) |\n"
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            try? handle.close()
        } else {
            try? line.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing random case can be replayed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed from `HAUL_SEED`, else from the clock; printed so a failure can be replayed.
    public static func fromEnvironment(_ label: String) -> SeededGenerator {
        let seed = ProcessInfo.processInfo.environment["HAUL_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("\(label): HAUL_SEED=\(seed)")
        return SeededGenerator(seed: seed)
    }
}
