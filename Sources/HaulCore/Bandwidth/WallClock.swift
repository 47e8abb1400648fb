import Foundation

/// The local time that speed-limit windows and budget periods go by: the date it starts at, run
/// on by the monotonic clock the engine times everything by.
///
/// `HAUL_CLOCK` (`2026-11-26T23:59:55`, local time) makes the clock start at that moment, so a
/// test can cross midnight or a window's edge in seconds (or at once, moving a test clock);
/// `TZ` picks the time zone as usual.
public struct WallClock: Sendable {
    public let calendar: Calendar
    private let start: Date
    private let clock: any MonotonicClock
    private let startedAt: Duration

    public init(environment: [String: String], clock: any MonotonicClock = SystemClock()) {
        var calendar = Calendar(identifier: .gregorian)
        if let zone = environment["TZ"].flatMap(TimeZone.init(identifier:)) { calendar.timeZone = zone }
        self.calendar = calendar
        self.clock = clock
        startedAt = clock.now
        start = environment["HAUL_CLOCK"].flatMap { Self.parse($0, in: calendar) } ?? Date()
    }

    public func now() -> Date { start.addingTimeInterval((clock.now - startedAt).seconds) }

    /// Minutes after local midnight at `date`.
    public func minuteOfDay(_ date: Date) -> Int {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return (c.hour ?? 0) * 60 + (c.minute ?? 0)
    }

    private static func parse(_ text: String, in calendar: Calendar) -> Date? {
        let numbers = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        let parts = DateComponents(
            year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
            second: numbers[5])
        return calendar.date(from: parts)
    }
}
