import HaulCore
import Synchronization

/// Fans engine events out to any number of subscribers.
///
/// Published events are held and delivered together by ``deliverHeld()``: a subscriber's task
/// then wakes once for a burst of events (several downloads starting and finishing at once)
/// instead of once per event. Order is kept.
///
/// Deliveries are paced: an event after a quiet spell goes out at once, but while events keep
/// coming they go out at most once per `pace`: each delivery wakes two threads (the delivering
/// task's and the subscriber's), and with many small files that must not happen once per file.
///
/// Its own lock, not the engine actor, guards it, so the delivery runs off the actor: a delivery
/// queued on the actor would have the actor wait for a thread while every transfer calling the
/// engine waits behind it.
final class EventHub: Sendable {
    private struct State {
        var subscribers: [Int: EngineEvents.Sender] = [:]
        var nextKey = 0
        var held: [EngineEvent] = []
        /// When the last delivery went out.
        var lastDelivery: Duration?

        mutating func deliverHeld(at now: Duration) {
            guard !held.isEmpty else { return }
            // Sent under the hub's lock, so two deliveries cannot overtake each other.
            for sender in subscribers.values { sender.send(held) }
            held.removeAll(keepingCapacity: true)
            lastDelivery = now
        }
    }

    private let state = Mutex(State())
    private let clock: any MonotonicClock
    /// The shortest time between two deliveries.
    let pace: Duration

    init(clock: any MonotonicClock, pace: Duration = .milliseconds(10)) {
        self.clock = clock
        self.pace = pace
    }

    /// A new subscriber gets the events published from now on, not those still held.
    func subscribe(onEnd: @escaping @Sendable (Int) -> Void) -> EngineEvents {
        let now = clock.now
        return state.withLock { s in
            s.deliverHeld(at: now)
            let key = s.nextKey
            s.nextKey += 1
            let (stream, sender) = EngineEvents.makeStream { onEnd(key) }
            s.subscribers[key] = sender
            return stream
        }
    }

    func unsubscribe(_ key: Int) {
        // Released outside the lock: a sender that goes away finishes its stream.
        let removed = state.withLock { $0.subscribers.removeValue(forKey: key) }
        _ = removed
    }

    /// Holds `event` for the next ``deliverHeld()``. When nothing was held before it, the caller
    /// has to arrange that delivery: returns how long from now (zero: now); nil otherwise.
    func hold(_ event: EngineEvent) -> Duration? {
        let now = clock.now
        return state.withLock { s in
            guard !s.subscribers.isEmpty else { return nil }
            s.held.append(event)
            guard s.held.count == 1 else { return nil }
            guard let last = s.lastDelivery else { return .zero }
            return max(.zero, last + pace - now)
        }
    }

    /// Hands every held event to every subscriber, in the order they were published.
    func deliverHeld() {
        let now = clock.now
        state.withLock { $0.deliverHeld(at: now) }
    }

    func finishAll() {
        let now = clock.now
        let senders = state.withLock { s in
            s.deliverHeld(at: now)
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        for sender in senders { sender.finish() }
    }
}
