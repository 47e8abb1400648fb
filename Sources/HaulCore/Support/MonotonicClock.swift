/// The clock haul measures time by: speeds, limits, timeouts, back-off, the tuning of a
/// download's connections, the engine's watches. Injected everywhere time is read or waited for,
/// so a test of time arithmetic moves a test clock instead of sleeping.
public protocol MonotonicClock: Sendable {
    /// Time since a fixed origin; never goes back.
    var now: Duration { get }

    /// Returns once ``now`` has reached `deadline`; throws `CancellationError` when the task is
    /// cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension MonotonicClock {
    /// Returns after `duration` by this clock.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// The system's monotonic clock (`ContinuousClock`, which also counts time suspended).
public struct SystemClock: MonotonicClock {
    private static let origin = ContinuousClock.now

    public init() {}

    public var now: Duration { ContinuousClock.now - Self.origin }

    public func sleep(until deadline: Duration) async throws {
        try await Task.sleep(until: Self.origin + deadline, clock: .continuous)
    }
}

extension Duration {
    /// In seconds, for rates and anything else measured per second.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
