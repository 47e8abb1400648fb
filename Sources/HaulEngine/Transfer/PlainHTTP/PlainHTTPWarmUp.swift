import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix

extension PlainHTTPClient {
    /// Sends a made-up request through the plain client's handlers on an `EmbeddedChannel` and
    /// feeds them its response, on the thread that starts the event loops while `haul run` reads
    /// its state. The first real requests then find the code paged in, and the generic metadata
    /// and protocol conformances they use looked up (each channel's handlers are cast to NIO's
    /// handler protocols, a search of the binary's conformance records the first time): that
    /// first use had put the first connection of a run ~1.3 ms after its transfer began.
    static func warmUp() {
        _ = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton.any())
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        let handler = PlainHTTPHandler(
            stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in }, onClosed: { _ in })
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: ["Host": "localhost"])
        guard (try? channel.pipeline.syncOperations.addPlainHTTPHandlers(handler)) != nil,
            let request = try? PlainRequest(head),
            (try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()) != nil
        else { return }
        let sink = ResponseSink(loop: channel.embeddedEventLoop, throttle: Throttle(), progressInterval: 60)
        handler.start(request, reused: false, sink: sink)
        _ = try? channel.writeInbound(
            ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nETag: \"w\"\r\n\r\nw"))
        sink.discard()
    }
}
