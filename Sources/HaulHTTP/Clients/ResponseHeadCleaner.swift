import HaulCore
import NIOCore

/// Replaces control characters in a response's head with spaces before NIO's parser reads it,
/// as RFC 9110 §5.5 allows a recipient to: a `Content-Disposition` with an ESC in it downloads
/// (its name is still made safe later) instead of failing as a malformed response.
///
/// NUL, CR and LF are left as they are: they decide the framing, and a head that has them where
/// they do not belong is malformed. Only the head after each request is touched; the body passes
/// through unread. It sits in front of the request encoder, so it sees each request go out.
final class ResponseHeadCleaner: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var scanner = HeadScanner()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !scanner.inHead { scanner = HeadScanner(inHead: true) }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard scanner.inHead else {
            context.fireChannelRead(data)
            return
        }
        var buffer = unwrapInboundIn(data)
        buffer.withUnsafeMutableReadableBytes { scanner.clean($0) }
        context.fireChannelRead(wrapInboundOut(buffer))
    }
}

/// Where a response head ends, read byte by byte across reads, and its control characters made
/// spaces on the way.
struct HeadScanner {
    /// Bytes still belong to a head.
    private(set) var inHead = false
    /// The current line holds nothing but CR so far (the status line never counts as blank).
    private var lineBlank = false

    init(inHead: Bool = false) {
        self.inHead = inHead
    }

    /// Cleans `bytes` up to the end of the head, if it ends in them.
    mutating func clean(_ bytes: UnsafeMutableRawBufferPointer) {
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case 0x0A:
                if lineBlank {
                    inHead = false
                    return
                }
                lineBlank = true
            case 0x0D, 0x00:
                break
            default:
                lineBlank = false
                if (byte < 0x20 && byte != 0x09) || byte == 0x7F { bytes[index] = 0x20 }
            }
        }
    }
}
