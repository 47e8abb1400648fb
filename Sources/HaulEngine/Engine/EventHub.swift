import HaulCore

/// Fans engine events out to any number of subscribers. Owned by the engine actor.
///
/// Published events are held and delivered together by ``deliverHeld()``, which the engine runs
/// once its current work is done: a subscriber's task then wakes once for a burst of events
/// (several downloads starting and finishing at once) instead of once per event. Order is kept.
struct EventHub {
    private var subscribers: [Int: EngineEvents.Sender] = [:]
    private var nextKey = 0
    private var held: [EngineEvent] = []

    /// A new subscriber gets the events published from now on, not those still held.
    mutating func subscribe(onEnd: @escaping @Sendable (Int) -> Void) -> EngineEvents {
        deliverHeld()
        let key = nextKey
        nextKey += 1
        let (stream, sender) = EngineEvents.makeStream { onEnd(key) }
        subscribers[key] = sender
        return stream
    }

    mutating func unsubscribe(_ key: Int) {
        subscribers[key] = nil
    }

    /// Holds `event` for the next ``deliverHeld()``; true when nothing was held before it, that
    /// is when the caller has to arrange that delivery.
    mutating func hold(_ event: EngineEvent) -> Bool {
        guard !subscribers.isEmpty else { return false }
        held.append(event)
        return held.count == 1
    }

    /// Hands every held event to every subscriber, in the order they were published.
    mutating func deliverHeld() {
        guard !held.isEmpty else { return }
        let events = held
        held.removeAll(keepingCapacity: true)
        for sender in subscribers.values { sender.send(events) }
    }

    mutating func finishAll() {
        deliverHeld()
        for sender in subscribers.values { sender.finish() }
        subscribers = [:]
    }
}
