import HaulCore
import Synchronization

/// A clock that runs in real time and that a test can move forward at once: a retry's back-off,
/// a window's edge or midnight comes when the test says, not when the wall clock gets there,
/// while transfers against real servers keep their own pace.
///
/// Whatever sleeps on it wakes at its deadline by real time, or as soon as ``advance(by:)`` takes
/// the clock past it.
public final class TestClock: MonotonicClock {
    private struct State {
        var skipped: Duration = .zero
        var sleepers: [Int: (deadline: Duration, wake: CheckedContinuation<Void, Never>)] = [:]
        var next = 0
    }

    private let system = SystemClock()
    private let state = Mutex(State())

    public init() {}

    public var now: Duration { system.now + state.withLock { $0.skipped } }

    /// Moves the clock `duration` forward and wakes everything whose deadline that passes.
    public func advance(by duration: Duration) {
        let woken = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.skipped += duration
            let now = system.now + s.skipped
            let due = s.sleepers.filter { $0.value.deadline <= now }
            for key in due.keys { s.sleepers[key] = nil }
            return due.map(\.value.wake)
        }
        for wake in woken { wake.resume() }
    }

    /// How many tasks sleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Waits (in real time, at most `limit`) until at least `count` tasks sleep on this clock:
    /// a test moves the clock once what it waits for is asleep.
    public func waitForSleepers(_ count: Int = 1, limit: Duration = .seconds(10)) async throws {
        let deadline = system.now + limit
        while sleeperCount < count {
            guard system.now < deadline else { throw TestClockTimeout(count: count) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    public func sleep(until deadline: Duration) async throws {
        let key = state.withLock { s -> Int in
            s.next += 1
            return s.next
        }
        // Real time: a timer that wakes the sleeper at its deadline if no jump does first.
        let timer = Task { [system] in
            let skipped = state.withLock { $0.skipped }
            try? await system.sleep(until: deadline - skipped)
            wake(key)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let due = state.withLock { s -> Bool in
                    if now(s) >= deadline || Task.isCancelled { return true }
                    s.sleepers[key] = (deadline, continuation)
                    return false
                }
                if due { continuation.resume() }
            }
        } onCancel: {
            wake(key)
        }
        try Task.checkCancellation()
    }

    private func now(_ s: State) -> Duration { system.now + s.skipped }

    private func wake(_ key: Int) {
        state.withLock { $0.sleepers.removeValue(forKey: key) }?.wake.resume()
    }
}

public struct TestClockTimeout: Error, CustomStringConvertible {
    let count: Int
    public var description: String { "fewer than \(count) tasks slept on the test clock in time" }
}
