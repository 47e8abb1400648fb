import HaulCore
import NIOCore
import NIOWebSocket

/// One WebSocket on `/jsonrpc` (RFC 6455): each text message is a request answered in a text
/// message, and every notification of the service is sent as it happens, as aria2 does.
final class RPCWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let service: Aria2Service
    private var listener: Int?
    private var closing = false

    init(service: Aria2Service) { self.service = service }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let service = self.service
        let registered = context.eventLoop.makePromise(of: Int.self)
        registered.completeWithTask {
            await service.listen { bytes in Self.sendText(bytes, on: channel) }
        }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        registered.futureResult.whenSuccess { key in
            // A socket closed while the listener was being registered lets it go at once.
            guard channel.isActive else {
                Task { await service.unlisten(key) }
                return
            }
            bound.value.listener = key
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopListening()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stopListening() }

    private func stopListening() {
        guard let key = listener else { return }
        listener = nil
        let service = self.service
        Task { await service.unlisten(key) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            Self.answer(Array(frame.unmaskedData.readableBytesView), service: service, on: context.channel)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            guard !closing else {
                context.close(promise: nil)
                return
            }
            closing = true
            let close = WebSocketFrame(
                fin: true, opcode: .connectionClose, data: context.channel.allocator.buffer(capacity: 0))
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in channel.close(promise: nil) }
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private static func answer(_ body: [UInt8], service: Aria2Service, on channel: any Channel) {
        Task {
            let answer = await service.answer(body)
            if answer.unauthorized { try? await service.clock.sleep(for: .milliseconds(500)) }
            sendText(answer.body, on: channel)
        }
    }

    private static func sendText(_ bytes: [UInt8], on channel: any Channel) {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(bytes: bytes))
        channel.writeAndFlush(frame, promise: nil)
    }
}
