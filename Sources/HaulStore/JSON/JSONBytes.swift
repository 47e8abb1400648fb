import FoundationEssentials
import HaulCore

/// JSON values written straight into bytes, for output too large to build through `JSONEncoder`
/// (the state file and `haul ls --json` with 100,000 downloads). Strings and dates come out as
/// `JSONEncoder` writes them, so both writers agree byte for byte.
public enum JSONBytes {
    /// `text` as a JSON string literal: `"` and `\` escaped, \b \f \n \r \t in their short forms,
    /// other control characters as `\u00XX`; everything else (`/` too) as it is.
    public static func quoted(_ text: String, into out: inout [UInt8]) {
        write(to: &out, atMost: quotedBound(text)) { $0.appendQuoted(text) }
    }

    /// Appends `value` in decimal without building a `String` (a save writes ~500,000 numbers).
    /// Inlinable so that callers in other modules get it specialized.
    @inlinable
    public static func appendDecimal(_ value: some BinaryInteger, to out: inout [UInt8]) {
        write(to: &out, atMost: 20) { $0.appendDecimal(value) }
    }

    /// Appends `seconds` as `seconds.description` writes it, for a time stamp of at most six
    /// decimals (see `Date.nowToTheMicrosecond()`) between 1 and 8.5×10⁹; false, and nothing
    /// written, for any other value (the caller writes `description`).
    ///
    /// `description` is the shortest decimal that reads back as the same `Double`. A candidate
    /// with six decimals, `n / 10⁶`, reads back as `seconds` exactly when that division in
    /// `Double` arithmetic gives `seconds` (both numbers are exact below 2⁵³, and IEEE division
    /// and decimal reading both round to nearest). Below 2³³ s a `Double` is finer than a
    /// microsecond, so at most one of the candidates next to `seconds × 10⁶` reads back, and a
    /// shorter text that reads back would be that one without its trailing zeros.
    public static func appendTimestamp(_ seconds: Double, to out: inout [UInt8]) -> Bool {
        var written = false
        write(to: &out, atMost: 20) { written = $0.appendTimestamp(seconds) }
        return written
    }

    /// What ``appendTimestamp(_:to:)`` writes: the whole seconds, and the decimals as a number
    /// and their count (`.05` is 5 and 2); nil for a value it leaves to `description`.
    static func timestampParts(_ seconds: Double) -> (whole: Int64, fraction: Int64, decimals: Int)? {
        guard seconds >= 1, seconds < 8.5e9 else { return nil }
        let near = (seconds * 1_000_000).rounded()
        var found: Double?
        for step in -1...1 {
            let candidate = near + Double(step)
            guard candidate / 1_000_000 == seconds else { continue }
            guard found == nil else { return nil }
            found = candidate
        }
        guard let found else { return nil }
        let micros = Int64(found)
        var fraction = micros % 1_000_000
        guard fraction != 0 else { return nil } // a whole number: not a time stamp's text
        var decimals = 6
        while fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        return (micros / 1_000_000, fraction, decimals)
    }

    /// `date` as a quoted ISO 8601 UTC time to the second, rounded down, as `JSONEncoder`'s
    /// `.iso8601` writes it: `"2026-11-22T23:48:32Z"`.
    public static func appendISO8601(_ date: Date, to out: inout [UInt8]) {
        let c = CivilDate(secondsSince1970: Int(date.timeIntervalSince1970.rounded(.down)))
        out.append(UInt8(ascii: "\""))
        if c.year < 0 { out.append(UInt8(ascii: "-")) }
        appendPadded(Int64(abs(c.year)), width: 4, to: &out)
        appendTwoDigits(after: "-", c.month, to: &out)
        appendTwoDigits(after: "-", c.day, to: &out)
        appendTwoDigits(after: "T", c.hour, to: &out)
        appendTwoDigits(after: ":", c.minute, to: &out)
        appendTwoDigits(after: ":", c.second, to: &out)
        out.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
    }

    private static func appendTwoDigits(after separator: Unicode.Scalar, _ value: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: separator))
        appendPadded(Int64(value), width: 2, to: &out)
    }

    private static func appendPadded(_ value: Int64, width: Int, to out: inout [UInt8]) {
        let digits = decimalDigits(UInt64(value))
        for _ in digits..<max(digits, width) { out.append(UInt8(ascii: "0")) }
        appendDecimal(value, to: &out)
    }
}
