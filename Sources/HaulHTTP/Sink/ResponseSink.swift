import HaulCore
import NIOCore
import NIOHTTP1
import Synchronization

/// Receives one response for a transfer: hands the head to the transfer's task, then writes the
/// body into its destination (the `.part` file) as it arrives.
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

    /// The response head: awaited (by the task, once it asks), or arrived, or what ended the
    /// request before it.
    private enum Head {
        case awaited(CheckedContinuation<HTTPResponseHead, Error>?)
        case settled(Result<HTTPResponseHead, Error>)
    }

    /// The body, from the head on.
    private enum Body {
        /// The task has not chosen yet: the parts read ahead, how the response ended if it did
        /// (the parts before an error are still written), and the client's wait once they fill
        /// ``readAhead``.
        case readingAhead(early: [ByteBuffer], bytes: Int, ended: Result<Void, Error>?, client: EventLoopPromise<Void>?)
        /// Read and dropped (a small redirect body: the connection stays reusable).
        case discarding
        /// Written into `destination`; `total` is where the file ends, when known.
        case writing(any BodyDestination, total: Int64?)
        /// Over: the file position reached, or what ended it. `cut`: writing stopped at a piece's
        /// end before the body's own, and the request is to be cancelled.
        case ended(Result<Int64, Error>, cut: Bool)
    }

    /// Where the body is written up to, and what the task has been told of it.
    private struct Progress {
        var position: Int64 = 0
        /// Where writing stops short of the body's end: a segmented download gave the rest of
        /// this connection's piece to another connection.
        var end: Int64?
        var writeBehind = WriteBehind(from: 0)
        var lastReport: Duration
        /// The task, when it is waiting for the next event.
        var waiter: CheckedContinuation<BodyEvent, Error>?
        /// A progress report the task has not taken yet (only the latest is kept).
        var unreported: Int64?
    }

    private struct State {
        var head = Head.awaited(nil)
        var body = Body.readingAhead(early: [], bytes: 0, ended: nil, client: nil)
        var progress: Progress

        /// Writing has reached the cut, which comes before the body's own end.
        var reachedCut: Bool {
            guard let end = progress.end, progress.position >= end else { return false }
            guard case .writing(_, let total) = body else { return true }
            return total.map { end < $0 } ?? true
        }

        /// Ends the body with `result`; returns the task's waiter, now taken.
        mutating func end(_ result: Result<Int64, Error>, cut: Bool = false) -> CheckedContinuation<BodyEvent, Error>? {
            body = .ended(result, cut: cut)
            defer { progress.waiter = nil }
            return progress.waiter
        }
    }

    let loop: EventLoop
    private let state: Mutex<State>
    private let pacing: any ReadPacing
    private let clock: any MonotonicClock
    private let progressInterval: Duration

    init(loop: EventLoop, pacing: any ReadPacing, clock: any MonotonicClock, progressInterval: Duration) {
        self.loop = loop
        state = Mutex(State(progress: Progress(lastReport: clock.now)))
        self.pacing = pacing
        self.clock = clock
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
                if case .settled(let head) = s.head { return head }
                s.head = .awaited(waiter)
                return nil
            }
            if let known { waiter.resume(with: known) }
        }
    }

    /// Settles the head once: the first of `receiveHead` and `fail` decides it.
    private func settleHead(_ result: Result<HTTPResponseHead, Error>) {
        let waiter = state.withLock { s -> CheckedContinuation<HTTPResponseHead, Error>? in
            guard case .awaited(let waiter) = s.head else { return nil }
            s.head = .settled(result)
            return waiter
        }
        waiter?.resume(with: result)
    }

    /// Has the body written to `destination` from `offset` on; `total` is the size the file
    /// should end at, when known. What was read ahead is written here, on the caller's thread.
    func startWriting(to destination: any BodyDestination, at offset: Int64, total: Int64?) throws -> BodyStart {
        let (position, client, failure, complete) = state.withLock {
            s -> (Int64, EventLoopPromise<Void>?, Error?, Bool) in
            guard case .readingAhead(let early, _, let ended, let client) = s.body else {
                return (offset, nil, nil, false)
            }
            s.body = .writing(destination, total: total)
            s.progress.position = offset
            s.progress.writeBehind = WriteBehind(from: offset)
            var failure: Error?
            var cut = false
            for buffer in early where failure == nil && !cut {
                failure = Self.write(buffer, to: destination, total: total, &s.progress)
                cut = s.reachedCut
            }
            if let failure {
                _ = s.end(.failure(failure))
            } else if cut || s.reachedCut {
                _ = s.end(.success(s.progress.position), cut: true)
            } else if let ended {
                _ = s.end(ended.map { s.progress.position })
            }
            let complete: Bool
            if case .ended(.success, _) = s.body { complete = true } else { complete = false }
            return (s.progress.position, client, failure, complete)
        }
        if let failure {
            client?.fail(failure)
            throw failure
        }
        client?.succeed()
        let written = Int(position - offset)
        guard written > 0 else {
            return complete ? .finished(size: position, capWait: .zero) : .streaming(position: position)
        }
        // The limits count these bytes now; while the body goes on arriving the loop's next write
        // waits for them.
        pacing.countAgainstBudget(written)
        let wait = pacing.consume(written)
        return complete ? .finished(size: position, capWait: wait) : .streaming(position: position)
    }

    /// Stops writing at `end` (a segment's new end), or where the body has got to if that is
    /// further; returns where it stops. Once it stops before the body's end the request is to be
    /// cancelled (``wasCut``).
    func stop(at end: Int64) -> Int64 {
        let (stopped, waiter) = state.withLock { s -> (Int64, CheckedContinuation<BodyEvent, Error>?) in
            if case .readingAhead = s.body {
                // Not written yet: it stops there when it starts.
                s.progress.end = end
                return (end, nil)
            }
            let stopAt = max(end, s.progress.position)
            s.progress.end = stopAt
            guard case .writing = s.body, s.reachedCut else { return (stopAt, nil) }
            return (stopAt, s.end(.success(s.progress.position), cut: true))
        }
        waiter?.resume(returning: .finished(stopped))
        return stopped
    }

    /// Whether writing stopped at a segment's end before the body's own.
    var wasCut: Bool {
        state.withLock { s in
            if case .ended(_, cut: true) = s.body { return true }
            return false
        }
    }

    /// Has the body read and dropped (a small redirect body: the connection stays reusable).
    /// Does nothing once the task has chosen.
    func discard() {
        let client = state.withLock { s -> EventLoopPromise<Void>? in
            guard case .readingAhead(_, _, _, let client) = s.body else { return nil }
            s.body = .discarding
            return client
        }
        client?.succeed()
    }

    /// The next thing that happened to the body: its end (or the error that ended it) first,
    /// else the latest progress, else whichever comes next.
    func nextEvent() async throws -> BodyEvent {
        try await withCheckedThrowingContinuation { waiter in
            let ready: Result<BodyEvent, Error>? = state.withLock { s in
                if case .ended(let outcome, _) = s.body { return outcome.map(BodyEvent.finished) }
                if let position = s.progress.unreported {
                    s.progress.unreported = nil
                    return .success(.progress(position))
                }
                s.progress.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(with: ready) }
        }
    }

    /// The file position the body reached.
    var position: Int64 { state.withLock { $0.progress.position } }

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
        loop.scheduleTask(in: TimeAmount(Self.budgetRecheck)) {}.futureResult.flatMap { self.receiveBodyPart(rest) }
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
    static let budgetRecheck = Duration.milliseconds(500)

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
        let now = clock.now
        let next: Next = state.withLock { s in
            switch s.body {
            case .readingAhead(var early, var bytes, let ended, _):
                // Nothing comes after the end.
                guard ended == nil else { return .read }
                early.append(buffer)
                bytes += buffer.readableBytes
                guard bytes >= Self.readAhead else {
                    s.body = .readingAhead(early: early, bytes: bytes, ended: nil, client: nil)
                    return .read
                }
                let client = loop.makePromise(of: Void.self)
                s.body = .readingAhead(early: early, bytes: bytes, ended: nil, client: client)
                return .wait(client.futureResult)
            case .discarding:
                return .read
            case .ended(.failure(let error), _):
                return .fail(error)
            case .ended(.success, _):
                // Written up to a cut: the rest of the body is another connection's.
                return .fail(CancellationError())
            case .writing(let destination, let total):
                if let error = Self.write(buffer, to: destination, total: total, &s.progress) { return .fail(error) }
                guard s.reachedCut else {
                    return .written(Self.takeReport(&s.progress, now: now, every: progressInterval))
                }
                let position = s.progress.position
                return .cut(s.end(.success(position), cut: true), position)
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
            guard wait > .zero else { return loop.makeSucceededVoidFuture() }
            return loop.scheduleTask(in: TimeAmount(wait)) {}.futureResult
        }
    }

    /// The response ended after the last body part.
    func finish() {
        let ended = state.withLock { s -> (CheckedContinuation<BodyEvent, Error>, Int64)? in
            switch s.body {
            case .readingAhead(let early, let bytes, nil, let client):
                s.body = .readingAhead(early: early, bytes: bytes, ended: .success(()), client: client)
                return nil
            case .writing:
                let position = s.progress.position
                return s.end(.success(position)).map { ($0, position) }
            case .readingAhead, .discarding, .ended:
                return nil
            }
        }
        if let (waiter, size) = ended { waiter.resume(returning: .finished(size)) }
    }

    /// The request ended with `error`; nothing is written after this.
    func fail(_ error: Error) {
        settleHead(.failure(error))
        let (waiter, client) = state.withLock {
            s -> (CheckedContinuation<BodyEvent, Error>?, EventLoopPromise<Void>?) in
            switch s.body {
            case .readingAhead(let early, let bytes, nil, let client):
                // The task has not chosen yet: it still gets what arrived, then this error.
                s.body = .readingAhead(early: early, bytes: bytes, ended: .failure(error), client: nil)
                return (nil, client)
            case .readingAhead(let early, let bytes, let ended, let client):
                s.body = .readingAhead(early: early, bytes: bytes, ended: ended, client: nil)
                return (nil, client)
            case .writing:
                return (s.end(.failure(error)), nil)
            case .discarding, .ended:
                return (nil, nil)
            }
        }
        client?.fail(error)
        waiter?.resume(throwing: error)
    }

    /// Writes `buffer` at the body's position and moves it on, no further than a cut; the error
    /// if the write failed.
    private static func write(
        _ buffer: ByteBuffer, to destination: any BodyDestination, total: Int64?, _ p: inout Progress
    ) -> Error? {
        var buffer = buffer
        if let end = p.end, p.position + Int64(buffer.readableBytes) > end {
            buffer = buffer.getSlice(at: buffer.readerIndex, length: Int(max(0, end - p.position)))!
        }
        do {
            try destination.write(buffer, at: p.position, fileSize: total)
        } catch {
            return error
        }
        p.position += Int64(buffer.readableBytes)
        if let range = p.writeBehind.written(upTo: p.position) { destination.startWriteback(range) }
        return nil
    }

    /// The task to tell of the position, if a progress interval has passed since the last report.
    private static func takeReport(_ p: inout Progress, now: Duration, every interval: Duration) -> (
        CheckedContinuation<BodyEvent, Error>, Int64
    )? {
        guard now - p.lastReport >= interval else { return nil }
        p.lastReport = now
        guard let waiter = p.waiter else {
            p.unreported = p.position
            return nil
        }
        p.waiter = nil
        return (waiter, p.position)
    }
}
