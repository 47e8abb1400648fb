import FoundationEssentials

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
        let text = probeOutput.lowercased().replacing("(guessed)", with: "").trimmed()
        let last = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ":" }).last.map(String.init) ?? ""
        switch last {
        case "1", "3", "yes", "guess-yes", "metered": self = .metered
        case "2", "4", "no", "guess-no", "unmetered": self = .unmetered
        default: self = .unknown
        }
    }
}

/// The mode, what the probe says, the metered cap and budget, and the global speed limit, as
/// the header shows them.
public struct NetworkStatus: Codable, Sendable, Equatable {
    public var mode: MeteredMode
    public var verdict: MeteredVerdict
    /// Bytes per second for allowed downloads while metered; nil for no cap.
    public var limit: Int64?
    /// The most bytes to receive while metered per day or month; nil for none.
    public var budget: DataBudget?
    /// Bytes received while metered in the budget's current period.
    public var budgetUsed: Int64
    /// The global speed limit, when one is set.
    public var speedLimit: SpeedLimit?
    /// Whether ``speedLimit`` is in force now (inside its window, or it has none).
    public var speedLimitActive: Bool
    /// Where the aria2-compatible RPC endpoint is served now (`127.0.0.1:6800`); nil when it is not.
    public var rpcAddress: String?
    /// The engine on another machine this status comes from; nil for a haul on this one.
    public var remote: RemoteLink?

    public init(
        mode: MeteredMode, verdict: MeteredVerdict = .unknown, limit: Int64? = nil, budget: DataBudget? = nil,
        budgetUsed: Int64 = 0, speedLimit: SpeedLimit? = nil, speedLimitActive: Bool = false,
        rpcAddress: String? = nil
    ) {
        self.rpcAddress = rpcAddress
        self.mode = mode
        self.verdict = verdict
        self.limit = limit
        self.budget = budget
        self.budgetUsed = budgetUsed
        self.speedLimit = speedLimit
        self.speedLimitActive = speedLimitActive
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mode = try c.decode(MeteredMode.self, forKey: .mode)
        verdict = try c.decodeIfPresent(MeteredVerdict.self, forKey: .verdict) ?? .unknown
        limit = try c.decodeIfPresent(Int64.self, forKey: .limit)
        budget = try c.decodeIfPresent(DataBudget.self, forKey: .budget)
        budgetUsed = try c.decodeIfPresent(Int64.self, forKey: .budgetUsed) ?? 0
        speedLimit = try c.decodeIfPresent(SpeedLimit.self, forKey: .speedLimit)
        speedLimitActive = try c.decodeIfPresent(Bool.self, forKey: .speedLimitActive) ?? false
        rpcAddress = try c.decodeIfPresent(String.self, forKey: .rpcAddress)
        remote = try c.decodeIfPresent(RemoteLink.self, forKey: .remote)
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

    /// Whether this period's metered budget is used up.
    public var budgetUsedUp: Bool { budget.map { budgetUsed >= $0.bytes } ?? false }

    /// The global limit in bytes per second in force now, with the metered cap when metered;
    /// nil for none. A schedule's 0 is not a rate: it holds downloads instead.
    public var rateInForce: Int64? {
        let global = speedLimitActive ? speedLimit.flatMap { $0.rate > 0 ? $0.rate : nil } : nil
        let cap = isMetered ? limit : nil
        switch (global, cap) {
        case (let g?, let c?): return min(g, c)
        case (let g?, nil): return g
        case (nil, let c): return c
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

    /// "2.0 MiB of 8.0 MiB today", or nil without a budget.
    public var budgetLabel: String? {
        budget.map { "\(Formatting.bytes(budgetUsed)) of \(Formatting.bytes($0.bytes)) \($0.period.current)" }
    }

    /// "2.0 MiB/s", "2.0 MiB/s during 08:00-23:00 (not now)", "none".
    public var speedLimitLabel: String {
        guard let speedLimit else { return "none" }
        return speedLimit.label + (speedLimit.window != nil && !speedLimitActive ? " (not now)" : "")
    }
}
