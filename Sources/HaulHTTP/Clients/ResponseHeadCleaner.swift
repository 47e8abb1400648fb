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
        // Read first: writing into a buffer that the read still shares copies all of it, and a
        // head almost never has a byte to clean.
        if buffer.withUnsafeReadableBytes({ scanner.advanceIfClean($0) }) {
            context.fireChannelRead(data)
            return
        }
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
        _ = walk(UnsafeRawBufferPointer(bytes)) { index in
            bytes[index] = 0x20
            return true
        }
    }

    /// Reads `bytes` as ``clean(_:)`` would and returns true when none of them is to be cleaned;
    /// otherwise returns false and stays where it was, for `clean` to read them again.
    mutating func advanceIfClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var ahead = self
        guard ahead.walk(bytes, { _ in false }) else { return false }
        self = ahead
        return true
    }

    /// Reads `bytes` up to the end of the head, calling `control` with the index of each byte
    /// to be made a space; stops and returns false as soon as `control` does.
    private mutating func walk(_ bytes: UnsafeRawBufferPointer, _ control: (Int) -> Bool) -> Bool {
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case 0x0A:
                if lineBlank {
                    inHead = false
                    return true
                }
                lineBlank = true
            case 0x0D, 0x00:
                break
            default:
                lineBlank = false
                if (byte < 0x20 && byte != 0x09) || byte == 0x7F, !control(index) { return false }
            }
        }
        return true
    }
}
