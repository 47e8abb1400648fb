import HaulCore
import Synchronization

/// The events one subscriber receives, in the order they were sent: an `AsyncSequence` fed in
/// bursts by a ``Sender``.
///
/// It replaces an `AsyncStream<EngineEvent>`, whose generic storage is not specialised for the
/// element: each event cost ~10,000 instructions to send and take (about a tenth of `haul run`'s
/// own work with 1,000 small files), and the consumer could be woken once per event. Here a
/// burst is appended under one lock, the consumer is woken at most once for it, and it takes
/// the whole burst at once.
///
/// The stream ends when the sender finishes (the events already sent are still taken first) or
/// is released; when the consuming task is cancelled; or when the consumer releases the stream.
/// `onTermination` runs once, on whichever comes first.
public struct EngineEvents: AsyncSequence, Sendable {
    public typealias Element = EngineEvent

    private let channel: Channel
    /// Ends the stream once the consumer holds no copy of it (or of an iterator) any more.
    private let lifetime: ConsumerLifetime

    /// A stream and the sender that feeds it.
    public static func makeStream(onTermination: (@Sendable () -> Void)? = nil) -> (EngineEvents, Sender) {
        let channel = Channel(onTermination: onTermination)
        return (EngineEvents(channel: channel, lifetime: ConsumerLifetime(channel)), Sender(channel))
    }

    private init(channel: Channel, lifetime: ConsumerLifetime) {
        self.channel = channel
        self.lifetime = lifetime
    }

    public func makeAsyncIterator() -> Iterator { Iterator(bursts: bursts.makeAsyncIterator()) }

    /// The same events, a burst at a time: what was sent together or while the consumer was
    /// busy. A consumer that writes somewhere can then write once per burst.
    public var bursts: Bursts { Bursts(channel: channel, lifetime: lifetime) }

    public struct Bursts: AsyncSequence, Sendable {
        public typealias Element = [EngineEvent]

        fileprivate let channel: Channel
        fileprivate let lifetime: ConsumerLifetime

        public func makeAsyncIterator() -> Iterator { Iterator(channel: channel, lifetime: lifetime) }

        public struct Iterator: AsyncIteratorProtocol {
            fileprivate let channel: Channel
            fileprivate let lifetime: ConsumerLifetime

            public mutating func next() async -> [EngineEvent]? {
                let burst = await channel.take()
                return burst.isEmpty ? nil : burst
            }
        }
    }

    /// Hands out each burst's events one by one.
    public struct Iterator: AsyncIteratorProtocol {
        private var bursts: Bursts.Iterator
        private var burst: [EngineEvent] = []
        private var index = 0

        fileprivate init(bursts: Bursts.Iterator) { self.bursts = bursts }

        public mutating func next() async -> EngineEvent? {
            if index == burst.count {
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
        private let channel: Channel

        fileprivate init(_ channel: Channel) { self.channel = channel }

        deinit { channel.end(keepingBuffered: true) }

        /// Sends one event; ignored once the stream has ended.
        public func send(_ event: EngineEvent) { channel.append(CollectionOfOne(event)) }

        /// Sends a burst of events, which the consumer takes in one go.
        public func send(_ events: [EngineEvent]) { channel.append(events) }

        /// Ends the stream after the events sent so far.
        public func finish() { channel.end(keepingBuffered: true) }
    }
}

extension EngineEvents {
    fileprivate final class Channel: Sendable {
        private struct State {
            var buffer: [EngineEvent] = []
            var waiter: CheckedContinuation<[EngineEvent], Never>?
            var ended = false
            var onTermination: (@Sendable () -> Void)?
        }

        private let state: Mutex<State>

        init(onTermination: (@Sendable () -> Void)?) {
            state = Mutex(State(onTermination: onTermination))
        }

        func append(_ events: some Collection<EngineEvent>) {
            guard !events.isEmpty else { return }
            let woken = state.withLock { s -> (CheckedContinuation<[EngineEvent], Never>, [EngineEvent])? in
                guard !s.ended else { return nil }
                s.buffer.append(contentsOf: events)
                guard let waiter = s.waiter else { return nil }
                s.waiter = nil
                defer { s.buffer = [] }
                return (waiter, s.buffer)
            }
            if let (waiter, burst) = woken { waiter.resume(returning: burst) }
        }

        /// Everything sent and not yet taken, waiting for it when there is nothing; empty once
        /// the stream has ended.
        func take() async -> [EngineEvent] {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (waiter: CheckedContinuation<[EngineEvent], Never>) in
                    let ready = state.withLock { s -> [EngineEvent]? in
                        if !s.buffer.isEmpty {
                            defer { s.buffer = [] }
                            return s.buffer
                        }
                        if s.ended { return [] }
                        s.waiter = waiter
                        return nil
                    }
                    if let ready { waiter.resume(returning: ready) }
                }
            } onCancel: {
                end(keepingBuffered: false)
            }
        }

        /// Ends the stream: the producer finished (what was sent is still taken) or the
        /// consumer went away (it is dropped).
        func end(keepingBuffered: Bool) {
            let (waiter, onTermination) = state.withLock {
                s -> (CheckedContinuation<[EngineEvent], Never>?, (@Sendable () -> Void)?) in
                guard !s.ended else { return (nil, nil) }
                s.ended = true
                if !keepingBuffered { s.buffer = [] }
                defer {
                    s.waiter = nil
                    s.onTermination = nil
                }
                return (s.waiter, s.onTermination)
            }
            // A waiting consumer has nothing buffered: it takes what is left, that is nothing.
            waiter?.resume(returning: [])
            onTermination?()
        }
    }

    /// Held only by the consumer's copies of the stream and its iterators.
    fileprivate final class ConsumerLifetime: Sendable {
        private let channel: Channel

        init(_ channel: Channel) { self.channel = channel }

        deinit { channel.end(keepingBuffered: false) }
    }
}
