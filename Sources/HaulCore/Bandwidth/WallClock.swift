import Foundation

/// The local time that speed-limit windows and budget periods go by.
///
/// `HAUL_CLOCK` (`2026-11-26T23:59:55`, local time) makes the clock start at that moment and
/// run on in real time from there, so a test can cross midnight or a window's edge in seconds;
/// `TZ` picks the time zone as usual.
public struct WallClock: Sendable {
    public let calendar: Calendar
    private let offset: TimeInterval

    public init(environment: [String: String]) {
        var calendar = Calendar(identifier: .gregorian)
        if let zone = environment["TZ"].flatMap(TimeZone.init(identifier:)) { calendar.timeZone = zone }
        self.calendar = calendar
        offset = environment["HAUL_CLOCK"].flatMap { Self.parse($0, in: calendar) }.map { $0.timeIntervalSinceNow } ?? 0
    }

    public func now() -> Date { Date().addingTimeInterval(offset) }

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
