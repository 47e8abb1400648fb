import NIOCore
import NIOHTTP1

/// One keep-alive connection's requests, one at a time: writes the request, feeds the response to
/// its `ResponseSink`, and reads from the socket only while the sink is ready for more (the channel
/// runs with auto-read off), so a paused or capped body is not buffered in memory (beyond what the
/// sink reads ahead while its task decides about the head).
final class PlainHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase { case idle, awaitingHead, body, closed }

    /// What arrived from the connection, kept in order: a part decoded from the socket, or the
    /// end of the connection (an error, or the peer closing). An end waits behind the parts that
    /// came before it, so a body that arrived whole before a close is still written.
    private enum Inbound {
        case part(PlainResponseParser.Part)
        case ended(Error)
    }

    private let stallTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let onReusable: (Channel) -> Void
    private let onClosed: (Channel) -> Void
    private var parser = PlainResponseParser()

    private var context: ChannelHandlerContext?
    private var phase = Phase.idle
    private var sink: ResponseSink?
    private var reused = false
    private var headReceived = false
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
        self.onReusable = onReusable
        self.onClosed = onClosed
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) {
        stopWatching()
        self.context = nil
    }

    /// Sends a request on this (idle) connection; its response goes to `sink`.
    func start(_ request: PlainRequest, reused: Bool, sink: ResponseSink) {
        guard let context, phase == .idle, context.channel.isActive else {
            sink.fail(reused ? PlainHTTPClient.StaleConnection() : ChannelError.ioOnClosedChannel)
            return
        }
        phase = .awaitingHead
        self.sink = sink
        self.reused = reused
        headReceived = false
        lastActivity = .now()
        watch(until: lastActivity + stallTimeout)
        parser.expectResponse(bodiless: request.head.method == .HEAD)
        context.writeAndFlush(wrapOutboundOut(request.bytes), promise: nil)
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
        parser.receive(unwrapInboundIn(data))
        do {
            while let part = try parser.next() { pending.append(.part(part)) }
        } catch {
            pending.append(.ended(error))
        }
        deliver()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        readMoreIfReady()
    }

    func channelInactive(context: ChannelHandlerContext) {
        do {
            if let end = try parser.connectionClosed() { pending.append(.part(end)) }
        } catch {
            pending.append(.ended(error))
        }
        pending.append(.ended(TransferError.transient("the server closed the connection")))
        deliver()
        stopWatching()
        onClosed(context.channel)
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
                fail(reused && !headReceived ? PlainHTTPClient.StaleConnection() : error)
                closeQuietly()
                return
            case .part(.head(let head)):
                // Informational responses (1xx) never get here: the parser skips them.
                headReceived = true
                phase = .body
                future = sink.receiveHead(head)
            case .part(.body(let buffer)):
                future = sink.receiveBodyPart(buffer)
            case .part(.end(let keepAlive)):
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
            onReusable(context.channel)
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
    /// timer for every request and every response cost more than the rest of the handler's
    /// work for a small file (issue 6, (b)). A later deadline than the one set is left to the
    /// check; an earlier one moves the timer.
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
            let seconds = Double(stallTimeout.nanoseconds) / 1e9
            fail(TransferError.transient("stalled: no data for \(Int(seconds)) s"))
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
    /// Adds the plain client's handler for one connection (it reads the responses itself; see
    /// ``PlainResponseParser``).
    func addPlainHTTPHandlers(_ handler: PlainHTTPHandler) throws {
        try addHandler(handler)
    }
}
