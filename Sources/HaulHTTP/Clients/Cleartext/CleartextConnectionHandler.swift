import HaulCore
import NIOCore
import NIOHTTP1

/// One keep-alive connection's requests, one at a time: writes the request, feeds the response to
/// its `ResponseSink`, and reads from the socket only while the sink is ready for more (the channel
/// runs with auto-read off), so a paused or capped body is not buffered in memory (beyond what the
/// sink reads ahead while its task decides about the head).
///
/// It sits behind NIO's HTTP/1.1 codec (see ``addCleartextHTTPHandlers(_:)``): NIO's decoder is the
/// only code that reads what a server sends, and NIO's encoder and header validator write what
/// haul sends.
final class CleartextConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private enum Phase { case idle, awaitingHead, body, closed }

    /// What arrived from the connection, kept in order: a part decoded from the socket, or the
    /// end of the connection (an error, or the peer closing). An end waits behind the parts that
    /// came before it, so a body that arrived whole before a close is still written.
    private enum Inbound {
        case part(HTTPClientResponsePart)
        case ended(Error)
    }

    /// A request head NIO's validator refused to send (a header with a line break or another
    /// character HTTP does not allow).
    struct RefusedRequest: Error {}

    private let stallTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    /// What the pool is told: the connection can take the next request, or it closed.
    private let pool: (reusable: (Channel) -> Void, closed: (Channel) -> Void)

    private var context: ChannelHandlerContext?
    private var phase = Phase.idle
    private var sink: ResponseSink?
    private var reused = false
    private var headReceived = false
    /// Whether the current response's head lets the connection carry the next request.
    private var keepAlive = true
    /// What arrived while the sink was busy with an earlier part.
    private var pending = CircularBuffer<Inbound>()
    /// Waiting for a future the sink returned (its task's plan, a write held back by the speed cap).
    private var sinkBusy = false
    private var lastActivity = NIODeadline.now()
    /// Since when the connection has been kept unused (phase `idle`).
    private var idleSince = NIODeadline.now()
    /// The connection's one timer, for a stalled response and for a connection kept unused too
    /// long (see ``watch(until:)``), and when it fires.
    private var watchdog: Scheduled<Void>?
    private var watchdogDeadline = NIODeadline.distantFuture

    init(
        stallTimeout: TimeAmount, idleTimeout: TimeAmount, onReusable: @escaping (Channel) -> Void,
        onClosed: @escaping (Channel) -> Void
    ) {
        self.stallTimeout = stallTimeout
        self.idleTimeout = idleTimeout
        pool = (onReusable, onClosed)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) {
        stopWatching()
        self.context = nil
    }

    /// Sends a request (a GET or HEAD without a body) on this (idle) connection; its response goes
    /// to `sink`.
    func start(_ head: HTTPRequestHead, reused: Bool, sink: ResponseSink) {
        guard let context, phase == .idle, context.channel.isActive else {
            sink.fail(reused ? CleartextHTTPClient.StaleConnection() : ChannelError.ioOnClosedChannel)
            return
        }
        phase = .awaitingHead
        self.sink = sink
        self.reused = reused
        headReceived = false
        keepAlive = true
        lastActivity = .now()
        watch(until: lastActivity + stallTimeout)
        let sent = context.eventLoop.makePromise(of: Void.self)
        sent.futureResult.assumeIsolated().whenFailure { error in
            guard self.sink === sink else { return }
            self.fail(error is HTTPParserError ? RefusedRequest() : error)
            self.closeQuietly()
        }
        context.write(wrapOutboundOut(.head(head)), promise: sent)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.read()
    }

    /// Ends the request to `sink` if it is still this connection's current one.
    func cancel(_ sink: ResponseSink) {
        guard self.sink === sink else { return }
        fail(CancellationError())
        closeQuietly()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActivity = .now()
        pending.append(.part(unwrapInboundIn(data)))
        deliver()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        readMoreIfReady()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending.append(.ended(TransferFailure(.serverClosedConnection)))
        deliver()
        stopWatching()
        pool.closed(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        pending.append(.ended(error))
        deliver()
    }

    /// Hands queued parts to the sink, one at a time, each after the previous one's future.
    private func deliver() {
        while !sinkBusy, let next = pending.popFirst() {
            guard let sink else {
                // Nothing in flight: an idle connection that ends, or bytes after a response.
                if case .ended = next { closeQuietly() }
                continue
            }
            let future: EventLoopFuture<Void>
            switch next {
            case .ended(let error):
                // A reused connection the server had already given up on: the caller sends again.
                fail(reused && !headReceived ? CleartextHTTPClient.StaleConnection() : error)
                closeQuietly()
                return
            case .part(.head(let head)):
                // Informational responses (1xx) never get here: NIO's decoder drops them.
                headReceived = true
                keepAlive = head.isKeepAlive
                phase = .body
                future = sink.receiveHead(head)
            case .part(.body(let buffer)):
                future = sink.receiveBodyPart(buffer)
            case .part(.end):
                finishResponse(keepAlive: keepAlive)
                continue
            }
            sinkBusy = true
            var returnedAlready = false
            future.assumeIsolated().whenComplete { result in
                self.sinkBusy = false
                if case .failure(let error) = result {
                    self.fail(error)
                    self.closeQuietly()
                    return
                }
                // Completed later (not within this call): pick up where the loop stopped.
                if returnedAlready {
                    self.lastActivity = .now()
                    self.deliver()
                    self.readMoreIfReady()
                }
            }
            returnedAlready = true
        }
    }

    private func readMoreIfReady() {
        guard let context, phase == .awaitingHead || phase == .body else { return }
        guard !sinkBusy, pending.isEmpty else { return }
        context.read()
    }

    /// The response is complete; the connection serves the next request if `keepAlive`.
    private func finishResponse(keepAlive: Bool) {
        guard let sink else { return }
        self.sink = nil
        sink.finish()
        if keepAlive, let context, context.channel.isActive {
            phase = .idle
            idleSince = .now()
            watch(until: idleSince + idleTimeout)
            // Reading on while idle keeps the socket's read interest registered: NIO would
            // otherwise drop it now and add it back for the next request (two `epoll_ctl`s per
            // response), and a server closing the idle connection is noticed when it does.
            context.read()
            pool.reusable(context.channel)
        } else {
            closeQuietly()
        }
    }

    private func fail(_ error: Error) {
        guard let sink else { return }
        self.sink = nil
        phase = .closed
        sink.fail(error)
    }

    /// Closes the connection; whatever is still queued can no longer matter.
    private func closeQuietly() {
        phase = .closed
        pending.removeAll()
        context?.close(promise: nil)
    }

    /// Has the watchdog fire by `deadline`. It stays armed across requests and responses, and
    /// when it fires it checks what the connection is doing then: scheduling and cancelling a
    /// timer for every request and every response would cost more than the rest of the handler's
    /// work for a small file. A later deadline than the one set is left to the check; an earlier
    /// one moves the timer.
    private func watch(until deadline: NIODeadline) {
        if watchdog != nil, watchdogDeadline <= deadline { return }
        guard let context else { return }
        watchdog?.cancel()
        watchdogDeadline = deadline
        watchdog = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { self.watchdogFired() }
    }

    /// Fails the request when no byte arrived for `stallTimeout` while the sink wanted more;
    /// closes the connection when it has been kept unused for `idleTimeout`.
    private func watchdogFired() {
        watchdog = nil
        let now = NIODeadline.now()
        switch phase {
        case .awaitingHead, .body:
            guard sink != nil else { return }
            if sinkBusy { lastActivity = now }
            guard now >= lastActivity + stallTimeout else {
                watch(until: lastActivity + stallTimeout)
                return
            }
            fail(TransferFailure(.stalled(seconds: Int(stallTimeout.nanoseconds / 1_000_000_000))))
            closeQuietly()
        case .idle:
            guard now >= idleSince + idleTimeout else {
                watch(until: idleSince + idleTimeout)
                return
            }
            closeQuietly()
        case .closed:
            return
        }
    }

    private func stopWatching() {
        watchdog?.cancel()
        watchdog = nil
    }
}

extension ChannelPipeline.SynchronousOperations {
    /// Adds the ``ResponseHeadCleaner``, NIO's HTTP/1.1 client codec (with its outbound header
    /// validation) and `handler` behind it. Bytes after a response that no request asked for are
    /// an error, which closes the connection rather than leaving it pooled.
    func addCleartextHTTPHandlers(_ handler: CleartextConnectionHandler) throws {
        try addHandler(ResponseHeadCleaner())
        try addHTTPClientHandlers(leftOverBytesStrategy: .fireError, enableOutboundHeaderValidation: true)
        try addHandler(handler)
    }
}
