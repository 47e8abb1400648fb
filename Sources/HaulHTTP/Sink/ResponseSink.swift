import HaulCore
import NIOCore
import NIOHTTP1
import Synchronization

/// Receives one response for a transfer: hands the head to the transfer's task, then writes the
/// body into the `.part` file as it arrives.
///
/// An HTTP client (`CleartextHTTPClient`, or AsyncHTTPClient through the delegate adapter) calls the
/// `receive…`, `finish` and `fail` methods on `loop`. While the task decides what to do with the
/// head, up to ``readAhead`` bytes of the body are read and kept; the client reads no more until
/// the task has chosen (`startWriting` or `discard`). A small file has then usually arrived whole,
/// and the task writes it itself, on its own thread: with 1,000 files of 100 KiB that spares two
/// hand-overs per file between the task and a busy event loop (a plan sent to the loop, the end
/// sent back), and the connection serves its next request before the task has even decided.
/// Later parts are written on the loop, where they arrive. The task then waits on `nextEvent()`:
/// progress at most once per interval, and the end.
final class ResponseSink: Sendable {
    /// How much of a body is read while the task has not decided about it yet.
    static let readAhead = 256 * 1024

    private enum Plan {
        case write(any BodyDestination, total: Int64?)
        case discard
    }

    private struct State {
        /// The head, or what ended the request before it, once known; and the task waiting for it.
        var head: Result<HTTPResponseHead, Error>?
        var headWaiter: CheckedContinuation<HTTPResponseHead, Error>?
        var plan: Plan?
        /// Body parts that arrived before the plan.
        var early: [ByteBuffer] = []
        var earlyBytes = 0
        /// The client's wait for the plan, once `early` is full.
        var planWaiter: EventLoopPromise<Void>?
        /// How the response ended, when that was before the plan: the body parts that came
        /// before an error are still written.
        var endedEarly: Result<Void, Error>?
        var position: Int64 = 0
        /// Where writing stops short of the body's end: a segmented download gave the rest of
        /// this connection's piece to another connection.
        var end: Int64?
        /// Where the body ends by itself (the `total` it was started with).
        var naturalEnd: Int64?
        /// Whether writing stopped at `end`, before the body did.
        var cut = false
        var writeBehind = WriteBehind(from: 0)
        var lastReport: Double
        /// The task, when it is waiting for the next event.
        var waiter: CheckedContinuation<BodyEvent, Error>?
        /// A progress report the task has not taken yet (only the latest is kept).
        var unreported: Int64?
        var outcome: Result<Int64, Error>?
    }

    let loop: EventLoop
    private let state: Mutex<State>
    private let pacing: any ReadPacing
    private let progressInterval: Double

    init(loop: EventLoop, pacing: any ReadPacing, progressInterval: Double) {
        self.loop = loop
        state = Mutex(State(lastReport: Monotonic.seconds()))
        self.pacing = pacing
        self.progressInterval = progressInterval
    }

    // MARK: The transfer's task

    /// The response head, once it has arrived; throws what ended the request before that.
    ///
    /// Waited for under the sink's lock, not through an `EventLoopFuture`: a future's callback is
    /// registered on its event loop, a wake-up of that loop (an eventfd write) per request.
    func responseHead() async throws -> HTTPResponseHead {
        try await withCheckedThrowingContinuation { waiter in
            let known = state.withLock { s -> Result<HTTPResponseHead, Error>? in
                if let head = s.head { return head }
                s.headWaiter = waiter
                return nil
            }
            if let known { waiter.resume(with: known) }
        }
    }

    /// Settles the head once: the first of `receiveHead` and `fail` decides it.
    private func settleHead(_ result: Result<HTTPResponseHead, Error>) {
        let waiter = state.withLock { s -> CheckedContinuation<HTTPResponseHead, Error>? in
            guard s.head == nil else { return nil }
            s.head = result
            defer { s.headWaiter = nil }
            return s.headWaiter
        }
        waiter?.resume(with: result)
    }

    /// Has the body written to `writer` from `offset` on; `total` is the size the file should end
    /// at, when known. What was read ahead is written here, on the caller's thread.
    func startWriting(to writer: any BodyDestination, at offset: Int64, total: Int64?) throws -> BodyStart {
        let (position, waiter, failure, complete) = state.withLock {
            s -> (Int64, EventLoopPromise<Void>?, Error?, Bool) in
            guard s.plan == nil, s.outcome == nil else { return (offset, nil, nil, false) }
            s.plan = .write(writer, total: total)
            s.position = offset
            s.naturalEnd = total
            s.writeBehind = WriteBehind(from: offset)
            let early = s.early
            s.early = []
            s.earlyBytes = 0
            var failure: Error?
            for buffer in early where failure == nil && !s.cut {
                failure = Self.write(buffer, to: writer, total: total, &s)
            }
            if let failure {
                s.outcome = .failure(failure)
            } else if s.cut || Self.reachedCut(s) {
                s.cut = true
                s.outcome = .success(s.position)
            } else if let ended = s.endedEarly {
                s.outcome = ended.map { s.position }
            }
            defer { s.planWaiter = nil }
            let complete: Bool
            if case .success? = s.outcome { complete = true } else { complete = false }
            return (s.position, s.planWaiter, failure, complete)
        }
        if let failure {
            waiter?.fail(failure)
            throw failure
        }
        waiter?.succeed()
        let written = Int(position - offset)
        guard written > 0 else {
            return complete ? .finished(size: position, capWait: 0) : .streaming(position: position)
        }
        // The limits count these bytes now; while the body goes on arriving the loop's next write
        // waits for them.
        pacing.countAgainstBudget(written)
        let wait = pacing.consume(written)
        return complete ? .finished(size: position, capWait: wait) : .streaming(position: position)
    }

    /// Stops writing at `end` (a segment's new end), or where the body has got to if that is
    /// further; returns where it stops. Once it stops before the body's end the request is to
    /// be cancelled (``wasCut``).
    func stop(at end: Int64) -> Int64 {
        let (stopped, waiter) = state.withLock { s -> (Int64, CheckedContinuation<BodyEvent, Error>?) in
            guard s.plan != nil else {
                s.end = end
                return (end, nil)
            }
            let stopAt = max(end, s.position)
            s.end = stopAt
            guard s.outcome == nil, Self.reachedCut(s) else { return (stopAt, nil) }
            s.cut = true
            s.outcome = .success(s.position)
            defer { s.waiter = nil }
            return (stopAt, s.waiter)
        }
        waiter?.resume(returning: .finished(stopped))
        return stopped
    }

    /// Whether writing stopped at a segment's end before the body's own.
    var wasCut: Bool { state.withLock { $0.cut } }

    /// Writing has reached `end`, which comes before the body's own end.
    private static func reachedCut(_ s: State) -> Bool {
        guard let end = s.end, s.position >= end else { return false }
        return s.naturalEnd.map { end < $0 } ?? true
    }

    /// Has the body read and dropped (a small redirect body: the connection stays reusable).
    /// Does nothing once the task has chosen.
    func discard() {
        let waiter = state.withLock { s -> EventLoopPromise<Void>? in
            guard s.plan == nil else { return nil }
            s.plan = .discard
            s.early = []
            s.earlyBytes = 0
            defer { s.planWaiter = nil }
            return s.planWaiter
        }
        waiter?.succeed()
    }

    /// The next thing that happened to the body: its end (or the error that ended it) first,
    /// else the latest progress, else whichever comes next.
    func nextEvent() async throws -> BodyEvent {
        try await withCheckedThrowingContinuation { waiter in
            let ready: Result<BodyEvent, Error>? = state.withLock { s in
                if let outcome = s.outcome { return outcome.map(BodyEvent.finished) }
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

    // MARK: The HTTP client, on `loop`

    /// The body starts to be read ahead at once.
    func receiveHead(_ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        settleHead(.success(head))
        return loop.makeSucceededVoidFuture()
    }

    /// Writes, keeps or drops one part; the client reads no more until the returned future
    /// succeeds (later while the plan is pending and enough was read ahead, or while a speed
    /// limit holds it back).
    ///
    /// Under a speed limit a large part is taken in slices, each waited for: a single read can
    /// hold a second's worth of a low limit, and taking it at once would make the rate uneven.
    func receiveBodyPart(_ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let allowed = pacing.takeFromBudget(buffer.readableBytes)
        guard allowed < buffer.readableBytes else { return receivePaced(buffer) }
        // The metered budget ends inside this part: what it allows is written, the rest waits
        // (until the engine pauses the download, or the budget is raised).
        let rest = buffer.getSlice(at: buffer.readerIndex + allowed, length: buffer.readableBytes - allowed)!
        guard allowed > 0 else { return holdBack(rest) }
        return receivePaced(buffer.getSlice(at: buffer.readerIndex, length: allowed)!).flatMap { self.holdBack(rest) }
    }

    /// Offers `rest` to the budget again after a wait.
    private func holdBack(_ rest: ByteBuffer) -> EventLoopFuture<Void> {
        loop.scheduleTask(in: .milliseconds(Int64(Self.budgetRecheck * 1000))) {}.futureResult
            .flatMap { self.receiveBodyPart(rest) }
    }

    /// Writes a part under the speed limits, in slices when it is large.
    private func receivePaced(_ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard let rate = pacing.rate else { return receiveWholePart(buffer) }
        let slice = max(Self.smallestSlice, Int(rate * Self.sliceSeconds))
        guard buffer.readableBytes > slice else { return receiveWholePart(buffer) }
        let first = buffer.getSlice(at: buffer.readerIndex, length: slice)!
        let rest = buffer.getSlice(at: buffer.readerIndex + slice, length: buffer.readableBytes - slice)!
        return receiveWholePart(first).flatMap { self.receivePaced(rest) }
    }

    /// How long a part the data budget refused waits before it is offered again; the engine
    /// pauses its download long before.
    static let budgetRecheck = 0.5

    /// A slice of a part under a speed limit: this many seconds at the limit.
    static let sliceSeconds = 1.0 / 32
    static let smallestSlice = 16 * 1024

    private func receiveWholePart(_ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        enum Next {
            case read
            case wait(EventLoopFuture<Void>)
            case written((CheckedContinuation<BodyEvent, Error>, Int64)?)
            case cut(CheckedContinuation<BodyEvent, Error>?, Int64)
            case fail(Error)
        }
        let next: Next = state.withLock { s in
            if case .failure(let error)? = s.outcome { return .fail(error) }
            if s.plan == nil, s.endedEarly != nil { return .read } // nothing comes after the end
            switch s.plan {
            case nil:
                s.early.append(buffer)
                s.earlyBytes += buffer.readableBytes
                guard s.earlyBytes >= Self.readAhead else { return .read }
                let waiter = loop.makePromise(of: Void.self)
                s.planWaiter = waiter
                return .wait(waiter.futureResult)
            case .discard:
                return .read
            case .write(let writer, let total):
                if s.cut { return .fail(CancellationError()) }
                if let error = Self.write(buffer, to: writer, total: total, &s) { return .fail(error) }
                guard Self.reachedCut(s) else { return .written(takeReport(&s)) }
                s.cut = true
                s.outcome = .success(s.position)
                defer { s.waiter = nil }
                return .cut(s.waiter, s.position)
            }
        }
        switch next {
        case .read:
            return loop.makeSucceededVoidFuture()
        case .wait(let future):
            return future
        case .fail(let error):
            return loop.makeFailedFuture(error)
        case .cut(let waiter, let position):
            waiter?.resume(returning: .finished(position))
            // Ends the request: the rest of the body is another connection's.
            return loop.makeFailedFuture(CancellationError())
        case .written(let report):
            if let (waiter, position) = report { waiter.resume(returning: .progress(position)) }
            let wait = pacing.consume(buffer.readableBytes)
            guard wait > 0 else { return loop.makeSucceededVoidFuture() }
            return loop.scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) {}.futureResult
        }
    }

    /// The response ended after the last body part.
    func finish() {
        let ended = state.withLock { s -> (CheckedContinuation<BodyEvent, Error>, Int64)? in
            guard s.outcome == nil, s.endedEarly == nil else { return nil }
            guard s.plan != nil else {
                s.endedEarly = .success(())
                return nil
            }
            s.outcome = .success(s.position)
            defer { s.waiter = nil }
            return s.waiter.map { ($0, s.position) }
        }
        if let (waiter, size) = ended { waiter.resume(returning: .finished(size)) }
    }

    /// The request ended with `error`; nothing is written after this.
    func fail(_ error: Error) {
        settleHead(.failure(error))
        let (waiter, planWaiter) = state.withLock {
            s -> (CheckedContinuation<BodyEvent, Error>?, EventLoopPromise<Void>?) in
            defer { s.planWaiter = nil }
            guard s.outcome == nil, s.endedEarly == nil else { return (nil, s.planWaiter) }
            guard s.plan != nil else {
                // The task has not chosen yet: it still gets what arrived, then this error.
                s.endedEarly = .failure(error)
                return (nil, s.planWaiter)
            }
            s.outcome = .failure(error)
            defer { s.waiter = nil }
            return (s.waiter, s.planWaiter)
        }
        planWaiter?.fail(error)
        waiter?.resume(throwing: error)
    }

    /// Writes `buffer` at the body's position and moves it on; the error if the write failed.
    private static func write(
        _ buffer: ByteBuffer, to destination: any BodyDestination, total: Int64?, _ s: inout State
    ) -> Error? {
        var buffer = buffer
        if let end = s.end, s.position + Int64(buffer.readableBytes) > end {
            buffer = buffer.getSlice(at: buffer.readerIndex, length: Int(max(0, end - s.position)))!
        }
        do {
            try destination.write(buffer, at: s.position, fileSize: total)
        } catch {
            return error
        }
        s.position += Int64(buffer.readableBytes)
        if let range = s.writeBehind.written(upTo: s.position) { destination.startWriteback(range) }
        return nil
    }

    /// The task to tell of the position, if a progress interval has passed since the last report.
    private func takeReport(_ s: inout State) -> (CheckedContinuation<BodyEvent, Error>, Int64)? {
        let now = Monotonic.seconds()
        guard now - s.lastReport >= progressInterval else { return nil }
        s.lastReport = now
        guard let waiter = s.waiter else {
            s.unreported = s.position
            return nil
        }
        s.waiter = nil
        return (waiter, s.position)
    }
}
