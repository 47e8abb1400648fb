import Synchronization

/// Counts the bytes every transfer writes while the network is metered, and lets no byte past
/// the data budget be written: the rest of a read is held back until the engine has paused the
/// download, so the budget is kept to the byte whatever the speed.
final class MeteredCounter: Sendable {
    private struct State {
        var counting = false
        var used: Int64 = 0
        var budget: Int64?
        var told = false
    }

    private let state = Mutex(State())
    /// Yields once each time the budget becomes used up, for the engine to pause downloads.
    let spent: AsyncStream<Void>
    private let spentContinuation: AsyncStream<Void>.Continuation

    init() { (spent, spentContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    /// Counts while `counting` (metered), against `budget` bytes (nil: none), from `used`.
    func set(counting: Bool, used: Int64, budget: Int64?) {
        state.withLock { s in
            s.counting = counting
            s.used = used
            s.budget = budget
            s.told = false
        }
    }

    /// Counts while `counting`, against `budget`, keeping what was counted (a change of mode or
    /// budget must not lose the bytes a transfer counts meanwhile).
    func set(counting: Bool, budget: Int64?) {
        state.withLock { s in
            s.counting = counting
            if s.budget != budget { s.told = false }
            s.budget = budget
        }
    }

    var used: Int64 { state.withLock { $0.used } }
    /// Whether the network is metered now.
    var isCounting: Bool { state.withLock { $0.counting } }

    /// Takes up to `bytes` just read from the budget; returns how many it may write. Fewer once
    /// the budget is used: the rest is not written, and the engine pauses the download.
    func take(_ bytes: Int) -> Int {
        let (taken, tell) = state.withLock { s -> (Int, Bool) in
            guard s.counting else { return (bytes, false) }
            guard let budget = s.budget else {
                s.used += Int64(bytes)
                return (bytes, false)
            }
            let taken = Int(max(0, min(Int64(bytes), budget - s.used)))
            s.used += Int64(taken)
            guard taken < bytes else { return (taken, false) }
            defer { s.told = true }
            return (taken, !s.told)
        }
        if tell { spentContinuation.yield() }
        return taken
    }

    /// Counts `bytes` that were written already (read ahead before the transfer decided).
    func count(_ bytes: Int) {
        state.withLock { s in if s.counting { s.used += Int64(bytes) } }
    }
}
