/// Byte counts, rates and durations as people read them.
public enum Formatting {
    /// 1536 → "1.5 KiB"; below 1 KiB in whole bytes.
    public static func bytes(_ count: Int64) -> String {
        var value = Double(count)
        var unit = 0
        while abs(value) >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        return value >= 100 ? "\(Int(value.rounded())) \(units[unit])" : "\(oneDecimal(value)) \(units[unit])"
    }

    /// Made once: as a local, the array was built on every call (each TUI row, each log line).
    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]

    /// A share ratio with two decimals: "1.00".
    public static func ratio(_ value: Double) -> String {
        let hundredths = Int((max(0, value) * 100).rounded())
        let rest = hundredths % 100
        return "\(hundredths / 100).\(rest < 10 ? "0" : "")\(rest)"
    }

    public static func rate(_ bytesPerSecond: Double) -> String {
        bytes(Int64(bytesPerSecond.rounded())) + "/s"
    }

    /// 75 → "1m15s"; 4000 → "1h06m"; nil → "--".
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "--" }
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m\(twoDigits(s % 60))s" }
        if s < 86400 { return "\(s / 3600)h\(twoDigits(s % 3600 / 60))m" }
        return "\(s / 86400)d\(twoDigits(s % 86400 / 3600))h"
    }

    /// Percentage with no decimals, or nil when the total is unknown.
    public static func percent(received: Int64, total: Int64?) -> Int? {
        guard let total, total > 0 else { return total == 0 ? 100 : nil }
        return Int(min(100, (Double(received) / Double(total) * 100).rounded(.down)))
    }

    /// Parses sizes such as "500K", "2M", "1.5G", "1024" (bytes); binary multiples.
    public static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingASCIIWhitespace()
        guard let last = trimmed.last else { return nil }
        let multipliers: [Character: Double] = ["k": 1024, "m": 1024 * 1024, "g": 1024 * 1024 * 1024]
        var number = Substring(trimmed)
        var multiplier = 1.0
        if let m = multipliers[Character(last.lowercased())] {
            multiplier = m
            number = number.dropLast()
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        return Int64(value * multiplier)
    }

    /// Parses rates as curl writes them ("500K", "8M", "1.5M"; binary multiples), also with
    /// "iB", "B" or "/s" after the letter ("2MiB/s").
    public static func parseRate(_ text: String) -> Int64? {
        var t = text.trimmingASCIIWhitespace()
        for suffix in ["/s", "iB", "B"] where t.hasSuffix(suffix) && t.count > suffix.count {
            t.removeLast(suffix.count)
        }
        return parseSize(t.trimmingASCIIWhitespace())
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
