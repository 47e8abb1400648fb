/// A time of day range such as 08:00-23:00, in local time; it may run past midnight
/// (23:00-07:00). The start is inside, the end is not.
public struct DailyWindow: Codable, Sendable, Equatable, CustomStringConvertible {
    /// Minutes after midnight, 0..<1440.
    public var start: Int
    public var end: Int

    public init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), (0..<1440).contains(end), start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// Reads `HH:MM-HH:MM`; nil for anything else, or a window that starts where it ends.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.minute(parts[0]), let end = Self.minute(parts[1]) else { return nil }
        self.init(start: start, end: end)
    }

    private static func minute(_ text: Substring) -> Int? {
        let parts = String(text).trimmingASCIIWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]),
            (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }

    /// Whether `minute` (after midnight) is inside.
    public func contains(minute: Int) -> Bool {
        start < end ? (start <= minute && minute < end) : (minute >= start || minute < end)
    }

    public var description: String { "\(Self.clock(start))-\(Self.clock(end))" }

    /// 1020 → "17:00".
    public static func clock(_ minute: Int) -> String {
        let h = minute / 60
        let m = minute % 60
        return "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }
}
