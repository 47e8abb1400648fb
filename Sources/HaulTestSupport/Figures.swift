import Foundation
import HaulCore

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

/// The test suite's seeded random cases: a seed from `HAUL_SEED` replays a failure.
public typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// A seed from `HAUL_SEED`, else from the clock; printed so a failure can be replayed.
    public static func fromEnvironment(_ label: String) -> SplitMix64 {
        let seed =
            ProcessInfo.processInfo.environment["HAUL_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("\(label): HAUL_SEED=\(seed)")
        return SplitMix64(seed: seed)
    }
}
