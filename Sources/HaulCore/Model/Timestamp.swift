import FoundationEssentials

extension Date {
    /// Now, to the microsecond: the moments haul records (added, finished). Digits past the
    /// microsecond tell no one anything, and a date that is a whole number of microseconds is
    /// written to the state file as plain digits (see ``JSONBytes/appendTimestamp(_:to:)``).
    /// The engine takes its moments from its wall clock instead (``WallClock``).
    public static func nowToTheMicrosecond() -> Date { Date().toTheMicrosecond }

    /// This moment to the microsecond.
    public var toTheMicrosecond: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000)
    }
}
