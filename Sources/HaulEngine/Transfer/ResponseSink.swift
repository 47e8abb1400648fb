import NIOCore
import NIOHTTP1
import Synchronization

/// Receives one response for a transfer: hands the head to the transfer's task, then writes the
/// body into the `.part` file on the event loop, as it arrives.
///
/// An HTTP client (`PlainHTTPClient`, or AsyncHTTPClient through the delegate adapter) calls the
/// `receive…`, `finish` and `fail` methods on `loop`. Until the task has answered the head with a
/// `Plan` (through the promise in `Head`), the client reads no body. Writing each part where it
/// arrives spares a thread wake-up per part. Progress reaches the task through `progress`, at most
/// once per interval.
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

    private struct State {
        var plan: Plan?
        var position: Int64 = 0
        var lastReport: Double
    }

    let loop: EventLoop
    private let head: EventLoopPromise<Head>
    private let done: EventLoopPromise<Int64>
    private let state: Mutex<State>
    private let throttle: Throttle
    private let progressInterval: Double
    private let reportProgress: AsyncStream<Int64>.Continuation

    /// Bytes written so far, at most once per progress interval; finishes with the response.
    let progress: AsyncStream<Int64>

    init(loop: EventLoop, throttle: Throttle, progressInterval: Double) {
        self.loop = loop
        head = loop.makePromise()
        done = loop.makePromise()
        state = Mutex(State(lastReport: Monotonic.seconds()))
        self.throttle = throttle
        self.progressInterval = progressInterval
        (progress, reportProgress) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The response head, once it has arrived; throws what ended the request before that.
    func responseHead() async throws -> Head {
        try await head.futureResult.get()
    }

    /// The size of the file once the whole body is written; throws what ended the request.
    func bodyWritten() async throws -> Int64 {
        try await done.futureResult.get()
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
                if case .write(_, let offset, _) = plan { s.position = offset }
            }
        }
    }

    /// Writes (or drops) one part; the client reads no more until the returned future succeeds
    /// (later while a speed cap holds it back).
    func receiveBodyPart(_ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let outcome: Result<Int64?, Error> = state.withLock { s in
            guard case .write(let writer, _, let total) = s.plan else { return .success(nil) }
            do throws(FileError) {
                try writer.write(buffer, at: s.position)
            } catch {
                guard error.isDiskFull else { return .failure(error) }
                let shortfall = total.map { max(1, $0 - s.position - (DiskSpace.available(at: writer.path) ?? 0)) }
                return .failure(TransferError.diskFull(shortfall: shortfall))
            }
            s.position += Int64(buffer.readableBytes)
            let now = Monotonic.seconds()
            guard now - s.lastReport >= progressInterval else { return .success(nil) }
            s.lastReport = now
            return .success(s.position)
        }
        switch outcome {
        case .failure(let error):
            return loop.makeFailedFuture(error)
        case .success(let report):
            if let report { reportProgress.yield(report) }
        }
        let wait = throttle.consume(buffer.readableBytes)
        guard wait > 0 else { return loop.makeSucceededVoidFuture() }
        return loop.scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) {}.futureResult
    }

    /// The response ended after the last body part.
    func finish() {
        reportProgress.finish()
        done.succeed(position)
    }

    /// The request ended with `error`; nothing is written after this.
    func fail(_ error: Error) {
        head.fail(error)
        reportProgress.finish()
        done.fail(error)
    }
}
