import HaulCore
import Synchronization

/// One speed limit that readers on any thread draw from: the global limit, or one download's.
final class RateGate: Sendable {
    private struct State {
        var bucket: TokenBucket
        /// When a reader last had to wait.
        var lastHeld: Duration?
        /// The downloads drawing from this gate.
        var sharers = 1
    }

    /// How recently a reader must have waited for the gate to count as holding readers back.
    static let holdingWithin = Duration.milliseconds(500)

    private let clock: any MonotonicClock
    private let state: Mutex<State>

    init(clock: any MonotonicClock) {
        self.clock = clock
        state = Mutex(State(bucket: TokenBucket(now: clock.now)))
    }

    /// Bytes per second from now on, or nil for no limit.
    func setRate(_ rate: Int64?) {
        let new = rate.map(Double.init)
        state.withLock { s in
            guard s.bucket.rate != new else { return }
            s.bucket.setRate(new, now: clock.now)
            s.lastHeld = nil
        }
    }

    /// Sets how many downloads draw from this gate (for ``equalShare``).
    func setSharers(_ count: Int) { state.withLock { $0.sharers = max(1, count) } }

    /// The limit divided equally among the downloads drawing from it; nil without a limit.
    var equalShare: Double? { state.withLock { s in s.bucket.rate.map { $0 / Double(s.sharers) } } }

    /// The limit in bytes per second, nil when there is none.
    var rate: Double? { state.withLock { $0.bucket.rate } }

    /// Whether the limit holds its readers back: one had to wait within the last
    /// ``holdingWithin``, and together they took at least `share` of the rate over the bucket's
    /// last measure (a server's bursts wait at a limit they stay well under on average).
    func isHolding(share: Double) -> Bool {
        let now = clock.now
        return state.withLock { s in
            guard let held = s.lastHeld, now - held < Self.holdingWithin, let rate = s.bucket.rate else { return false }
            guard let taken = s.bucket.takenRate else { return true }
            return taken >= share * rate
        }
    }

    /// Takes `bytes` just read; returns the wait before reading more.
    func consume(_ bytes: Int) -> Duration {
        let now = clock.now
        return state.withLock { s in
            let wait = s.bucket.take(bytes, now: now)
            if wait > .zero { s.lastHeld = now }
            return wait
        }
    }
}
