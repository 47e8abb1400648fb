/// How long a session waits before trying a lost engine again: doubling from half a second to
/// fifteen, so a restart is found quickly and a machine that is gone costs one request per
/// fifteen seconds.
public enum ReconnectSchedule {
    public static let longest: Duration = .seconds(15)

    /// The wait after `failures` failed tries in a row (1 or more).
    public static func wait(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        let doublings = min(failures - 1, 5)
        return min(.milliseconds(500 << doublings), longest)
    }
}

/// How often the session looks at the engine: every second while something runs; while nothing
/// does and notifications arrive on a WebSocket, every five (a notification brings a look at
/// once); without them, every two, so a download another client adds is seen soon.
public enum PollPace {
    public static func interval(anyRunning: Bool, hearsNotifications: Bool) -> Duration {
        if anyRunning { return .seconds(1) }
        return hearsNotifications ? .seconds(5) : .seconds(2)
    }

    /// The least time between two looks, however many notifications come.
    public static let shortest: Duration = .milliseconds(250)
}
