import Foundation

extension Date {
    /// Now, to the microsecond: the moments haul records (added, finished). Digits past the
    /// microsecond tell no one anything, and a date that is a whole number of microseconds is
    /// written to the state file as plain digits (see ``JSONBytes/appendTimestamp(_:to:)``).
    public static func nowToTheMicrosecond() -> Date {
        let seconds = Date().timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds * 1_000_000).rounded() / 1_000_000)
    }
}
