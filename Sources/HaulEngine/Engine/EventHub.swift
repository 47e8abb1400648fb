import HaulCore

/// Fans engine events out to any number of subscribers. Owned by the engine actor.
struct EventHub {
    private var subscribers: [Int: AsyncStream<EngineEvent>.Continuation] = [:]
    private var nextKey = 0

    mutating func subscribe(onEnd: @escaping @Sendable (Int) -> Void) -> AsyncStream<EngineEvent> {
        let key = nextKey
        nextKey += 1
        let (stream, continuation) = AsyncStream.makeStream(of: EngineEvent.self, bufferingPolicy: .unbounded)
        continuation.onTermination = { _ in onEnd(key) }
        subscribers[key] = continuation
        return stream
    }

    mutating func unsubscribe(_ key: Int) {
        subscribers[key] = nil
    }

    func publish(_ event: EngineEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    mutating func finishAll() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }
}
