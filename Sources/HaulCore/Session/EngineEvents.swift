/// The events one subscriber receives, in the order they were sent: an `AsyncStream` of bursts,
/// so that events sent together (the engine delivers what it held in one go) wake the consumer
/// once and can be written once.
///
/// The stream ends when the sender finishes (the events already sent are still taken first) or
/// is released; when the consuming task is cancelled; or when the consumer releases the stream.
/// `onTermination` runs once, on whichever comes first.
public struct EngineEvents: AsyncSequence, Sendable {
    public typealias Element = EngineEvent

    /// The same events, a burst at a time, as they were sent.
    public let bursts: AsyncStream<[EngineEvent]>

    /// A stream and the sender that feeds it.
    public static func makeStream(onTermination: (@Sendable () -> Void)? = nil) -> (EngineEvents, Sender) {
        let (bursts, continuation) = AsyncStream<[EngineEvent]>.makeStream()
        if let onTermination { continuation.onTermination = { _ in onTermination() } }
        return (EngineEvents(bursts: bursts), Sender(continuation))
    }

    public func makeAsyncIterator() -> Iterator { Iterator(bursts: bursts.makeAsyncIterator()) }

    /// Hands out each burst's events one by one.
    public struct Iterator: AsyncIteratorProtocol {
        private var bursts: AsyncStream<[EngineEvent]>.Iterator
        private var burst: [EngineEvent] = []
        private var index = 0

        fileprivate init(bursts: AsyncStream<[EngineEvent]>.Iterator) { self.bursts = bursts }

        public mutating func next() async -> EngineEvent? {
            while index == burst.count {
                guard let next = await bursts.next() else { return nil }
                burst = next
                index = 0
            }
            defer { index += 1 }
            return burst[index]
        }
    }

    /// The producer's end. Releasing it finishes the stream.
    public final class Sender: Sendable {
        private let continuation: AsyncStream<[EngineEvent]>.Continuation

        fileprivate init(_ continuation: AsyncStream<[EngineEvent]>.Continuation) { self.continuation = continuation }

        deinit { continuation.finish() }

        /// Sends one event; ignored once the stream has ended.
        public func send(_ event: EngineEvent) { continuation.yield([event]) }

        /// Sends a burst of events, which the consumer takes in one go.
        public func send(_ events: [EngineEvent]) {
            guard !events.isEmpty else { return }
            continuation.yield(events)
        }

        /// Ends the stream after the events sent so far.
        public func finish() { continuation.finish() }
    }
}
