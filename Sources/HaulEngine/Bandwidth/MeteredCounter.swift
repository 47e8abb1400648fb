import Synchronization

/// Counts the bytes every transfer reads while the network is metered, and holds the readers
/// back once the data budget is used up, before the engine has paused their downloads: the
/// budget is kept to within a read per connection, whatever the speed.
final class MeteredCounter: Sendable {
    private struct State {
        var counting = false
        var used: Int64 = 0
        var budget: Int64?
        var told = false
    }

    /// How long a reader waits when the budget is used up; the engine pauses it long before.
    static let spentWait = 0.5

    private let state = Mutex(State())
    /// Yields once each time the budget becomes used up, for the engine to pause downloads.
    let spent: AsyncStream<Void>
    private let spentContinuation: AsyncStream<Void>.Continuation

    init() { (spent, spentContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    /// Counts while `counting` (metered), against `budget` bytes (nil: none), starting from `used`.
    func set(counting: Bool, used: Int64, budget: Int64?) {
        state.withLock { s in
            s.counting = counting
            s.used = used
            s.budget = budget
            s.told = false
        }
    }

    var used: Int64 { state.withLock { $0.used } }

    /// Counts `bytes` just read; returns the seconds to wait (non-zero once the budget is used).
    func consume(_ bytes: Int) -> Double {
        let (wait, tell) = state.withLock { s -> (Double, Bool) in
            guard s.counting else { return (0, false) }
            s.used += Int64(bytes)
            guard let budget = s.budget, s.used >= budget else { return (0, false) }
            defer { s.told = true }
            return (Self.spentWait, !s.told)
        }
        if tell { spentContinuation.yield() }
        return wait
    }
}
