import HaulAria2Wire
import NIOCore
import NIOHTTP1

/// One HTTP connection to the endpoint: `POST /jsonrpc` answered by the service, the CORS
/// preflight answered so a web UI from another origin may call, everything else refused.
/// aria2's GET form (JSON-RPC in the query, and JSONP) is not served: any page could make a
/// browser send it.
final class RPCHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "haul-rpc-http"
    /// How long a reply to a wrong secret waits, so a secret cannot be guessed quickly.
    static let unauthorizedDelay = TimeAmount.milliseconds(500)

    /// What the connection is reading now.
    private enum State {
        case idle
        /// A call's body, up to ``RPCServer/largestRequest``.
        case body(HTTPRequestHead, ByteBuffer)
        /// A request refused at its head: its body is skipped until its end.
        case skipping(HTTPResponseStatus, String, keepAlive: Bool)
        /// A request whose reply is on its way.
        case answering
    }

    private let service: Aria2Service
    private var state = State.idle

    init(service: Aria2Service) { self.service = service }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): begin(head, context: context)
        case .body(var chunk):
            guard case .body(let head, var body) = state else { return }
            if body.readableBytes + chunk.readableBytes > RPCServer.largestRequest {
                state = .skipping(.payloadTooLarge, "The request is larger than 2 MiB.", keepAlive: false)
                return
            }
            state = .answering // the buffer is not shared while it grows, so it is not copied
            body.writeBuffer(&chunk)
            state = .body(head, body)
        case .end:
            switch state {
            case .body(let head, let body):
                state = .answering
                answer(Array(body.readableBytesView), head: head, context: context)
            case .skipping(let status, let message, let keepAlive):
                state = .answering
                let error = RPCEnvelope.reply(id: .null, .failure(RPCError(code: -32600, message: message)))
                send(status, error.bytes, keepAlive: keepAlive, context: context)
            case .idle, .answering:
                break
            }
        }
    }

    private func begin(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard RPCServer.isEndpoint(head.uri) else {
            state = .skipping(.notFound, "Only /jsonrpc is served.", keepAlive: head.isKeepAlive)
            return
        }
        switch head.method {
        case .POST:
            state = .body(head, context.channel.allocator.buffer(capacity: 1024))
        case .OPTIONS:
            state = .answering
            var headers = Self.corsHeaders
            headers.add(name: "Access-Control-Allow-Methods", value: "POST, OPTIONS")
            let asked = head.headers["Access-Control-Request-Headers"].first ?? "Content-Type"
            headers.add(name: "Access-Control-Allow-Headers", value: asked)
            headers.add(name: "Access-Control-Max-Age", value: "1728000")
            headers.add(name: "Content-Length", value: "0")
            write(.ok, headers: headers, body: [], keepAlive: head.isKeepAlive, context: context)
        default:
            state = .skipping(
                .methodNotAllowed, "haul answers JSON-RPC posted to /jsonrpc or sent over its WebSocket.",
                keepAlive: head.isKeepAlive)
        }
    }

    private func answer(_ body: [UInt8], head: HTTPRequestHead, context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Aria2Service.Answer.self)
        let service = self.service
        promise.completeWithTask { await service.answer(body) }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.whenSuccess { answer in
            let (handler, context) = bound.value
            let status = HTTPResponseStatus(statusCode: answer.httpStatus)
            guard answer.unauthorized else {
                handler.send(status, answer.body, keepAlive: head.isKeepAlive, context: context)
                return
            }
            context.eventLoop.scheduleTask(in: Self.unauthorizedDelay) {
                let (handler, context) = bound.value
                handler.send(status, answer.body, keepAlive: head.isKeepAlive, context: context)
            }
        }
    }

    /// Headers every reply carries: any origin may call (the secret is what guards the endpoint,
    /// as with aria2's `--rpc-allow-origin-all`).
    private static var corsHeaders: HTTPHeaders {
        ["Access-Control-Allow-Origin": "*", "Cache-Control": "no-cache"]
    }

    private func send(_ status: HTTPResponseStatus, _ body: [UInt8], keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = Self.corsHeaders
        headers.add(name: "Content-Type", value: "application/json-rpc")
        headers.add(name: "Content-Length", value: String(body.count))
        write(status, headers: headers, body: body, keepAlive: keepAlive, context: context)
    }

    private func write(
        _ status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8], keepAlive: Bool,
        context: ChannelHandlerContext
    ) {
        var headers = headers
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        state = .idle
        if !keepAlive {
            let channel = context.channel
            done.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
