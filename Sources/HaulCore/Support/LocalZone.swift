import FoundationEssentials
import Glibc

/// The zone local time is read in: the C library's (`TZ`, else /etc/localtime, with its
/// daylight-saving rules), or a zone at a fixed offset from UTC.
public enum LocalZone: Sendable, Equatable {
    case system
    case fixed(secondsEastOfUTC: Int)

    /// The zone a `TZ` value names: UTC and POSIX zones without rules (`UTC0`, `JST-9`,
    /// `IST-5:30`) at their offset; anything else, or none, is the C library's, which reads the
    /// same `TZ` from the process's environment.
    public init(tz: String?) {
        guard let tz else {
            self = .system
            return
        }
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "UTC0", "GMT0", "Z"].contains(tz) {
            self = .fixed(secondsEastOfUTC: 0)
        } else if let offset = Self.posixOffset(tz) {
            self = .fixed(secondsEastOfUTC: offset)
        } else {
            self = .system
        }
    }

    /// The wall-clock fields of `date` in this zone.
    public func civil(_ date: Date) -> CivilDate {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        switch self {
        case .fixed(let offset):
            return CivilDate(secondsSince1970: seconds + offset)
        case .system:
            var time = time_t(seconds)
            var fields = tm()
            guard localtime_r(&time, &fields) != nil else { return CivilDate(secondsSince1970: seconds) }
            return CivilDate(
                year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
                hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
        }
    }

    /// The moment the wall clock shows `civil` in this zone (the earlier one in an hour shown
    /// twice), or nil for fields that name no moment.
    public func date(_ civil: CivilDate) -> Date? {
        guard civil.isValid else { return nil }
        switch self {
        case .fixed(let offset):
            return Date(timeIntervalSince1970: Double(civil.secondsSince1970 - offset))
        case .system:
            var fields = tm()
            fields.tm_year = Int32(civil.year - 1900)
            fields.tm_mon = Int32(civil.month - 1)
            fields.tm_mday = Int32(civil.day)
            fields.tm_hour = Int32(civil.hour)
            fields.tm_min = Int32(civil.minute)
            fields.tm_sec = Int32(civil.second)
            fields.tm_isdst = -1
            let time = mktime(&fields)
            return time == -1 ? nil : Date(timeIntervalSince1970: Double(time))
        }
    }

    /// `NAME±h[:mm]` with no daylight-saving part, east of UTC (POSIX counts west: `JST-9` is +9 h).
    private static func posixOffset(_ tz: String) -> Int? {
        let name = tz.prefix { $0.isLetter }
        let rest = tz.dropFirst(name.count)
        guard name.count >= 3, !rest.isEmpty, rest.allSatisfy({ $0.isNumber || "+-:".contains($0) }) else {
            return nil
        }
        let negative = rest.hasPrefix("-")
        let parts = rest.drop { $0 == "+" || $0 == "-" }.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let hours = Int(parts[0]), (0...24).contains(hours) else { return nil }
        let minutes = parts.count == 2 ? Int(parts[1]) : 0
        guard let minutes, (0..<60).contains(minutes) else { return nil }
        let west = hours * 3_600 + minutes * 60
        return negative ? west : -west
    }
}
