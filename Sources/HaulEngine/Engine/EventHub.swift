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
        /// When the last delivery went out (monotonic seconds).
        var lastDelivery = -Double.infinity

        mutating func deliverHeld() {
            guard !held.isEmpty else { return }
            // Sent under the hub's lock, so two deliveries cannot overtake each other.
            for sender in subscribers.values { sender.send(held) }
            held.removeAll(keepingCapacity: true)
            lastDelivery = Monotonic.seconds()
        }
    }

    private let state = Mutex(State())
    /// The shortest time between two deliveries, in seconds.
    let pace: Double

    init(pace: Double = 0.01) {
        self.pace = pace
    }

    /// A new subscriber gets the events published from now on, not those still held.
    func subscribe(onEnd: @escaping @Sendable (Int) -> Void) -> EngineEvents {
        state.withLock { s in
            s.deliverHeld()
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
    /// has to arrange that delivery: returns in how many seconds (0: now); nil otherwise.
    func hold(_ event: EngineEvent) -> Double? {
        state.withLock { s in
            guard !s.subscribers.isEmpty else { return nil }
            s.held.append(event)
            guard s.held.count == 1 else { return nil }
            return max(0, s.lastDelivery + pace - Monotonic.seconds())
        }
    }

    /// Hands every held event to every subscriber, in the order they were published.
    func deliverHeld() {
        state.withLock { $0.deliverHeld() }
    }

    func finishAll() {
        let senders = state.withLock { s in
            s.deliverHeld()
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        for sender in senders { sender.finish() }
    }
}
