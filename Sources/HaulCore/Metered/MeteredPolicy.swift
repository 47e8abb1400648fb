import Foundation

/// The user's metered-network setting.
public enum MeteredMode: String, Codable, Sendable, CaseIterable {
    /// Never treat the network as metered.
    case off
    /// Always treat it as metered.
    case on
    /// Ask NetworkManager.
    case auto

    /// `m` in the TUI: off → on → auto → off.
    public var next: MeteredMode {
        switch self {
        case .off: return .on
        case .on: return .auto
        case .auto: return .off
        }
    }
}

/// What the network probe last said.
public enum MeteredVerdict: String, Codable, Sendable {
    case metered, unmetered, unknown

    /// Parses a probe's output: NetworkManager's `Metered` property as `busctl` prints it
    /// (`u 1`; 1 = yes, 3 = guess-yes, 2 = no, 4 = guess-no, 0 = unknown), or the words
    /// `yes`, `guess-yes`, `no`, `guess-no`, `unknown` as nmcli prints them.
    public init(probeOutput: String) {
        // nmcli says "yes (guessed)" for GUESS_YES.
        let text = probeOutput.lowercased().replacingOccurrences(of: "(guessed)", with: "").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let last = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ":" }).last.map(String.init) ?? ""
        switch last {
        case "1", "3", "yes", "guess-yes", "metered": self = .metered
        case "2", "4", "no", "guess-no", "unmetered": self = .unmetered
        default: self = .unknown
        }
    }
}

/// The mode, what the probe says, and the speed cap, as the header shows them.
public struct NetworkStatus: Codable, Sendable, Equatable {
    public var mode: MeteredMode
    public var verdict: MeteredVerdict
    /// Bytes per second for allowed downloads while metered; nil for no cap.
    public var limit: Int64?

    public init(mode: MeteredMode, verdict: MeteredVerdict = .unknown, limit: Int64? = nil) {
        self.mode = mode
        self.verdict = verdict
        self.limit = limit
    }

    /// Whether downloads are treated as on a metered network now. `auto` without an answer
    /// from NetworkManager counts as unmetered.
    public var isMetered: Bool {
        switch mode {
        case .off: return false
        case .on: return true
        case .auto: return verdict == .metered
        }
    }

    /// "off", "on", "auto (metered)", "auto (unknown)"…, plus the cap when it applies.
    public var label: String {
        var text: String
        switch mode {
        case .off, .on: text = mode.rawValue
        case .auto: text = "auto (\(verdict.rawValue))"
        }
        if let limit, mode != .off { text += ", cap \(Formatting.rate(Double(limit)))" }
        return text
    }
}

/// Decides which downloads the metered-network policy pauses and resumes. Pure.
///
/// On a metered network only downloads with an allowance run; the rest are paused with the
/// cause `.metered` ("waiting for unmetered network"). When the network is unmetered again, or a
/// download gets an allowance, what the policy paused resumes by itself; a user's pause is
/// never undone.
public enum MeteredPolicy {
    public struct Decision: Equatable, Sendable {
        public var pause: [DownloadID] = []
        public var resume: [DownloadID] = []
    }

    public static func mayRun(_ download: Download, metered: Bool) -> Bool {
        !metered || download.allowMetered
    }

    /// Takes an array, not any collection: unspecialised across modules, a generic loop would copy
    /// every download; reading the fields in place copies nothing.
    public static func decide(_ downloads: [Download], metered: Bool) -> Decision {
        var decision = Decision()
        for i in downloads.indices {
            switch downloads[i].state {
            case .waiting, .downloading:
                if !mayRun(downloads[i], metered: metered) { decision.pause.append(downloads[i].id) }
            case .paused where downloads[i].pauseCause == .metered:
                if mayRun(downloads[i], metered: metered) { decision.resume.append(downloads[i].id) }
            case .paused, .finished, .failed:
                break
            }
        }
        return decision
    }
}
