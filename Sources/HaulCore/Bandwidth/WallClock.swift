import FoundationEssentials

/// The local time that speed-limit windows and budget periods go by: the date it starts at, run
/// on by the monotonic clock the engine times everything by.
///
/// `HAUL_CLOCK` (`2026-11-26T23:59:55`, local time) makes the clock start at that moment, so a
/// test can cross midnight or a window's edge in seconds (or at once, moving a test clock);
/// `TZ` picks the time zone as usual.
public struct WallClock: Sendable {
    public let zone: LocalZone
    private let start: Date
    private let clock: any MonotonicClock
    private let startedAt: Duration

    public init(environment: [String: String], clock: any MonotonicClock = SystemClock()) {
        let zone = LocalZone(tz: environment["TZ"])
        self.zone = zone
        self.clock = clock
        startedAt = clock.now
        start = environment["HAUL_CLOCK"].flatMap { Self.parse($0, in: zone) } ?? Date()
    }

    /// A clock that reads `start` now and runs on with `clock` (tests stand it at a moment).
    public init(startingAt start: Date, zone: LocalZone = LocalZone(tz: "UTC"), clock: any MonotonicClock) {
        self.zone = zone
        self.clock = clock
        self.start = start
        startedAt = clock.now
    }

    public func now() -> Date { start.addingTimeInterval((clock.now - startedAt).seconds) }

    /// Minutes after local midnight at `date`.
    public func minuteOfDay(_ date: Date) -> Int {
        let c = zone.civil(date)
        return c.hour * 60 + c.minute
    }

    private static func parse(_ text: String, in zone: LocalZone) -> Date? {
        let numbers = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        return zone.date(
            CivilDate(
                year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
                second: numbers[5]))
    }
}
