import FoundationEssentials

/// How often a metered data budget starts afresh.
public enum BudgetPeriod: String, Codable, Sendable, CaseIterable {
    /// At local midnight.
    case day
    /// On the first of the month, at local midnight.
    case month

    /// "today", "this month".
    public var current: String { self == .day ? "today" : "this month" }

    /// Names the period `date` falls in ("2026-11-26", "2026-11"): a count made under another
    /// key belongs to an earlier period.
    public func key(for date: Date, in zone: LocalZone) -> String {
        let c = zone.civil(date)
        let (year, month, day) = (c.year, c.month, c.day)
        let monthKey = "\(year)-\(month < 10 ? "0" : "")\(month)"
        guard self == .day else { return monthKey }
        return "\(monthKey)-\(day < 10 ? "0" : "")\(day)"
    }
}

/// The most bytes to receive over a metered network per day or month.
public struct DataBudget: Codable, Sendable, Equatable {
    public var bytes: Int64
    public var period: BudgetPeriod

    public init(bytes: Int64, period: BudgetPeriod) {
        self.bytes = bytes
        self.period = period
    }

    /// Reads `SIZE/day` or `SIZE/month` (`500M/day`, `2G/month`); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let period = BudgetPeriod(rawValue: parts[1].lowercased()),
            let bytes = Formatting.parseSize(String(parts[0])), bytes > 0
        else { return nil }
        self.init(bytes: bytes, period: period)
    }

    /// "8.0 MiB/day".
    public var label: String { "\(Formatting.bytes(bytes))/\(period.rawValue)" }
}

/// The bytes received over a metered network in one budget period.
public struct BudgetUsage: Codable, Sendable, Equatable {
    public var bytes: Int64
    /// The period counted (``BudgetPeriod/key(for:in:)``).
    public var period: String

    public init(bytes: Int64 = 0, period: String) {
        self.bytes = bytes
        self.period = period
    }
}
