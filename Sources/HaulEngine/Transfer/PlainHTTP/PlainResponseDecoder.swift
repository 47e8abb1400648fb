import NIOCore
import NIOHTTP1

/// NIO's HTTP/1 response decoder, told of each request directly rather than by watching the
/// channel's writes.
///
/// `ByteToMessageHandler(HTTPResponseDecoder())` unwraps every outbound write as an
/// `HTTPClientRequestPart` to learn the request's method (a response to HEAD has no body). The
/// plain client writes its requests as bytes (see ``PlainRequest``), so this decoder does not
/// observe writes; ``PlainHTTPHandler`` calls ``expectResponse(to:)`` as it sends each one.
final class PlainResponseDecoder: ByteToMessageDecoder {
    typealias InboundOut = HTTPClientResponsePart

    private let http = HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes)

    /// The request whose response comes next (after any before it) has been sent.
    func expectResponse(to head: HTTPRequestHead) {
        http.write(data: .head(head))
    }

    func decoderAdded(context: ChannelHandlerContext) {
        http.decoderAdded(context: context)
    }

    func decoderRemoved(context: ChannelHandlerContext) {
        http.decoderRemoved(context: context)
    }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        try http.decode(context: context, buffer: &buffer)
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try http.decodeLast(context: context, buffer: &buffer, seenEOF: seenEOF)
    }
}
