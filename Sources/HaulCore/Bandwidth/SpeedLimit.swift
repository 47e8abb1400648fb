/// The global speed limit: a rate, in force all day or only inside a daily window (outside it
/// there is no limit). A rate of 0 holds every download while it is in force.
public struct SpeedLimit: Codable, Sendable, Equatable {
    /// Bytes per second; 0 holds downloads.
    public var rate: Int64
    public var window: DailyWindow?

    /// The lowest rate a limit may have: below it the pauses between reads would outlast the
    /// stall timeout and a connection would be dropped as stalled.
    public static let minimumRate: Int64 = 16 * 1024

    public init(rate: Int64, window: DailyWindow? = nil) {
        self.rate = rate
        self.window = window
    }

    /// The rate in force at `minute` after midnight: nil when the window is elsewhere.
    public func rate(atMinute minute: Int) -> Int64? {
        guard let window else { return rate }
        return window.contains(minute: minute) ? rate : nil
    }

    /// "2.0 MiB/s during 08:00-23:00", "held during 09:00-17:00", "2.0 MiB/s".
    public var label: String {
        let what = rate == 0 ? "held" : Formatting.rate(Double(rate))
        return window.map { "\(what) during \($0)" } ?? what
    }

    /// Why a rate given by a user cannot be a limit, or nil when it can (0 holds downloads).
    public static func problem(with rate: Int64) -> String? {
        guard rate != 0, rate < minimumRate else { return nil }
        return "a speed limit must be at least \(Formatting.rate(Double(minimumRate))), or 0 to hold downloads"
    }
}
