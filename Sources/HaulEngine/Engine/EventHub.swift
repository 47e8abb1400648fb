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
///
/// A subscriber whose stream ended (its task cancelled, its stream released) only marks itself
/// ended and is dropped under the lock later: cancelling a task runs the stream's end while the
/// runtime holds that task's lock, and a delivery holds the hub's lock while it yields to the
/// task, which takes the task's lock; an end that took the hub's lock would deadlock the two.
final class EventHub: Sendable {
    private struct Subscriber {
        let sender: EngineEvents.Sender
        let ended: EndMark
    }

    /// Set once by the stream's end, from any thread, without a lock.
    private final class EndMark: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }
    }

    private struct State {
        var subscribers: [Subscriber] = []
        var held: [EngineEvent] = []
        /// When the last delivery went out.
        var lastDelivery: Duration?

        mutating func deliverHeld(at now: Duration) {
            guard !held.isEmpty else { return }
            // Sent under the hub's lock, so two deliveries cannot overtake each other.
            for subscriber in subscribers { subscriber.sender.send(held) }
            held.removeAll(keepingCapacity: true)
            lastDelivery = now
        }

        /// Takes the ended subscribers out; the caller lets go of them after the lock (a sender
        /// that goes away finishes its stream).
        mutating func removeEnded() -> [Subscriber] {
            var ended: [Subscriber] = []
            subscribers.removeAll { subscriber in
                guard subscriber.ended.isSet else { return false }
                ended.append(subscriber)
                return true
            }
            return ended
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
    func subscribe() -> EngineEvents {
        let now = clock.now
        let ended = EndMark()
        let (stream, sender) = EngineEvents.makeStream { ended.set() }
        let gone = state.withLock { s in
            s.deliverHeld(at: now)
            s.subscribers.append(Subscriber(sender: sender, ended: ended))
            return s.removeEnded()
        }
        _ = gone
        return stream
    }

    /// Holds `event` for the next ``deliverHeld()``. When nothing was held before it, the caller
    /// has to arrange that delivery: returns how long from now (zero: now); nil otherwise.
    func hold(_ event: EngineEvent) -> Duration? {
        let now = clock.now
        let (delay, gone) = state.withLock { s -> (Duration?, [Subscriber]) in
            let gone = s.removeEnded()
            guard !s.subscribers.isEmpty else { return (nil, gone) }
            s.held.append(event)
            guard s.held.count == 1 else { return (nil, gone) }
            guard let last = s.lastDelivery else { return (.zero, gone) }
            return (max(.zero, last + pace - now), gone)
        }
        _ = gone
        return delay
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
            defer { s.subscribers = [] }
            return s.subscribers.map(\.sender)
        }
        for sender in senders { sender.finish() }
    }
}
