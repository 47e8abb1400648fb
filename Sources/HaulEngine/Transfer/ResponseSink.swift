import HaulCore
import NIOCore
import NIOHTTP1
import Synchronization

/// Receives one response for a transfer: hands the head to the transfer's task, then writes the
/// body into the `.part` file on the event loop, as it arrives.
///
/// An HTTP client (`PlainHTTPClient`, or AsyncHTTPClient through the delegate adapter) calls the
/// `receive…`, `finish` and `fail` methods on `loop`. Until the task has answered the head with a
/// `Plan` (through the promise in `Head`), the client reads no body. Writing each part where it
/// arrives spares a thread wake-up per part. The task then waits on `nextEvent()`: progress at most
/// once per interval, and the end.
final class ResponseSink: Sendable {
    /// What to do with the body of a response the task has seen the head of.
    enum Plan: Sendable {
        /// Write it from `offset` on; `total` is the size the file should end at, when known.
        case write(PartFile.Writer, offset: Int64, total: Int64?)
        /// Read and drop it (a small redirect body: the connection stays reusable).
        case discard
    }

    /// A response head, and the promise the task answers it through.
    struct Head: Sendable {
        let head: HTTPResponseHead
        let plan: EventLoopPromise<Plan>
    }

    /// What the task hears about the body once it is being written.
    enum Event: Sendable {
        /// The file position the body has reached.
        case progress(Int64)
        /// The whole body is written; the file's size.
        case finished(Int64)
    }

    private struct State {
        var plan: Plan?
        var position: Int64 = 0
        var writeBehind = WriteBehind(from: 0)
        var lastReport: Double
        /// The task, when it is waiting for the next event.
        var waiter: CheckedContinuation<Event, Error>?
        /// A progress report the task has not taken yet (only the latest is kept).
        var unreported: Int64?
        var outcome: Result<Int64, Error>?
    }

    let loop: EventLoop
    private let head: EventLoopPromise<Head>
    private let state: Mutex<State>
    private let throttle: Throttle
    private let progressInterval: Double

    init(loop: EventLoop, throttle: Throttle, progressInterval: Double) {
        self.loop = loop
        head = loop.makePromise()
        state = Mutex(State(lastReport: Monotonic.seconds()))
        self.throttle = throttle
        self.progressInterval = progressInterval
    }

    /// The response head, once it has arrived; throws what ended the request before that.
    func responseHead() async throws -> Head {
        try await head.futureResult.get()
    }

    /// The next thing that happened to the body: its end (or the error that ended it) first,
    /// else the latest progress, else whichever comes next.
    func nextEvent() async throws -> Event {
        try await withCheckedThrowingContinuation { waiter in
            let ready: Result<Event, Error>? = state.withLock { s in
                if let outcome = s.outcome { return outcome.map(Event.finished) }
                if let position = s.unreported {
                    s.unreported = nil
                    return .success(.progress(position))
                }
                s.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(with: ready) }
        }
    }

    /// The file position the body reached.
    var position: Int64 { state.withLock { $0.position } }

    /// The client reads no body until the returned future succeeds.
    func receiveHead(_ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let plan = loop.makePromise(of: Plan.self)
        self.head.succeed(Head(head: head, plan: plan))
        return plan.futureResult.map { plan in
            self.state.withLock { s in
                s.plan = plan
                if case .write(_, let offset, _) = plan {
                    s.position = offset
                    s.writeBehind = WriteBehind(from: offset)
                }
            }
        }
    }

    /// Writes (or drops) one part; the client reads no more until the returned future succeeds
    /// (later while a speed cap holds it back).
    func receiveBodyPart(_ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let outcome: Result<(CheckedContinuation<Event, Error>, Int64)?, Error> = state.withLock { s in
            guard case .write(let writer, _, let total) = s.plan else { return .success(nil) }
            do throws(FileError) {
                try writer.write(buffer, at: s.position)
            } catch {
                guard error.isDiskFull else { return .failure(error) }
                let shortfall = total.map { max(1, $0 - s.position - (DiskSpace.available(at: writer.path) ?? 0)) }
                return .failure(TransferError.diskFull(shortfall: shortfall))
            }
            s.position += Int64(buffer.readableBytes)
            if let range = s.writeBehind.written(upTo: s.position) { writer.startWriteback(range) }
            let now = Monotonic.seconds()
            guard now - s.lastReport >= progressInterval else { return .success(nil) }
            s.lastReport = now
            guard let waiter = s.waiter else {
                s.unreported = s.position
                return .success(nil)
            }
            s.waiter = nil
            return .success((waiter, s.position))
        }
        switch outcome {
        case .failure(let error):
            return loop.makeFailedFuture(error)
        case .success(let report):
            if let (waiter, position) = report { waiter.resume(returning: .progress(position)) }
        }
        let wait = throttle.consume(buffer.readableBytes)
        guard wait > 0 else { return loop.makeSucceededVoidFuture() }
        return loop.scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) {}.futureResult
    }

    /// The response ended after the last body part.
    func finish() {
        end(with: .success(position))
    }

    /// The request ended with `error`; nothing is written after this.
    func fail(_ error: Error) {
        head.fail(error)
        end(with: .failure(error))
    }

    private func end(with outcome: Result<Int64, Error>) {
        let waiter = state.withLock { s -> CheckedContinuation<Event, Error>? in
            guard s.outcome == nil else { return nil }
            s.outcome = outcome
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(with: outcome.map(Event.finished))
    }
}
