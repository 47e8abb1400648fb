/// A smoothed transfer rate and the ETA that follows from it.
///
/// Samples closer together than `interval` are folded into the next one, so bursts of
/// small chunks do not make the number jump.
public struct SpeedMeter: Sendable {
    public private(set) var bytesPerSecond: Double = 0
    private var lastTime: Duration?
    private var lastBytes: Int64 = 0
    private let interval: Duration
    private let smoothing: Double

    public init(interval: Duration = .milliseconds(500), smoothing: Double = 0.3) {
        self.interval = interval
        self.smoothing = smoothing
    }

    /// Records that `bytes` in total have arrived at monotonic time `time`.
    public mutating func record(bytes: Int64, at time: Duration) {
        guard let previous = lastTime else {
            lastTime = time
            lastBytes = bytes
            return
        }
        let elapsed = time - previous
        guard elapsed >= interval else { return }
        let rate = Double(max(0, bytes - lastBytes)) / elapsed.seconds
        bytesPerSecond = bytesPerSecond == 0 ? rate : smoothing * rate + (1 - smoothing) * bytesPerSecond
        lastTime = time
        lastBytes = bytes
    }

    /// Whether it still says bytes are moving though none were recorded for `quiet` before `now`
    /// (a stalled connection, a wait for the network): then ``settle()`` says they are not.
    public func isQuiet(at now: Duration, after quiet: Duration) -> Bool {
        guard let lastTime, bytesPerSecond > 0 else { return false }
        return now - lastTime >= quiet
    }

    /// Nothing moves now; the next record measures from the last one.
    public mutating func settle() { bytesPerSecond = 0 }

    /// Seconds until `remaining` bytes have arrived, or nil when the speed is unknown.
    public func eta(remaining: Int64?) -> Double? {
        guard let remaining, bytesPerSecond > 1 else { return nil }
        return Double(max(0, remaining)) / bytesPerSecond
    }
}
