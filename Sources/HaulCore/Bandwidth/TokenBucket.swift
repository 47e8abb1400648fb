/// A token bucket that holds a reader to a rate: it takes what was read and answers how long to
/// wait before reading more. Pure; the time is passed in.
///
/// Bytes are counted after they were read, so the bucket may go into debt; the debt is paid
/// off by waiting, and the rate holds over any window longer than the largest debt takes.
public struct TokenBucket: Sendable, Equatable {
    /// Credit a reader may build up while it is not reading, in seconds at the rate: small, so
    /// a download that starts after a pause does not burst over the limit.
    public static let creditSeconds = 0.1

    /// How long the readers' own pace is measured over (``takenRate``): long enough to average
    /// out a server that sends a second's worth at once, as servers that cap a connection do.
    public static let measuredOver = Duration.seconds(2)

    /// Bytes per second; nil for no limit.
    public private(set) var rate: Double?
    private var tokens: Double = 0
    private var last: Duration
    /// The bytes taken since `windowStart`; each ``measuredOver`` they become ``takenRate``.
    private var windowBytes: Double = 0
    private var windowStart: Duration
    /// Bytes per second the readers took over the last whole ``measuredOver`` (nil before one
    /// has passed at this rate): below the rate, the bucket is not what holds them back, even
    /// when a burst had to wait.
    public private(set) var takenRate: Double?

    public init(rate: Double? = nil, now: Duration) {
        self.rate = rate
        last = now
        windowStart = now
    }

    /// Sets the rate from `now` on; debt and credit from the old rate are forgotten, so a
    /// change takes effect at once.
    public mutating func setRate(_ rate: Double?, now: Duration) {
        self.rate = rate
        tokens = 0
        last = now
        windowBytes = 0
        windowStart = now
        takenRate = nil
    }

    /// Takes `bytes` that were just read at `now`; returns the wait before reading more.
    public mutating func take(_ bytes: Int, now: Duration) -> Duration {
        guard let rate, rate > 0 else { return .zero }
        let measured = now - windowStart
        if measured >= Self.measuredOver {
            takenRate = windowBytes / measured.seconds
            windowBytes = 0
            windowStart = now
        }
        windowBytes += Double(bytes)
        tokens = min(rate * Self.creditSeconds, tokens + max(.zero, now - last).seconds * rate)
        last = max(last, now)
        tokens -= Double(bytes)
        return tokens < 0 ? .seconds(-tokens / rate) : .zero
    }
}
