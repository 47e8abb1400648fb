import HaulCore
import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import HaulHTTP

/// What the cleartext client sends: NIO's encoder writes the request, NIO's validator refuses a
/// header that could split it, and a target that could split the request line never gets there.
final class CleartextRequestTests: XCTestCase {
    /// A connected channel with the client's handlers, and a request for `uri` with `headers`
    /// started on it; returns the bytes written and the sink the response goes to.
    private func send(_ uri: String, _ headers: [(String, String)]) async throws -> (
        bytes: String, sink: ResponseSink, channel: EmbeddedChannel
    ) {
        let channel = EmbeddedChannel()
        let handler = CleartextConnectionHandler(
            stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in }, onClosed: { _ in })
        try channel.pipeline.syncOperations.addCleartextHTTPHandlers(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        let sink = ResponseSink(
            loop: channel.embeddedEventLoop, pacing: UnpacedReads(), clock: SystemClock(),
            progressInterval: .seconds(60))
        handler.start(
            HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: HTTPHeaders(headers)),
            reused: false, sink: sink)
        var bytes = ""
        while var buffer = try? channel.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readString(length: buffer.readableBytes) ?? ""
        }
        return (bytes, sink, channel)
    }

    func testTheRequestGoesOutAsNIOWritesIt() async throws {
        let (bytes, sink, channel) = try await send("/a%20b?c=1", [("Host", "h"), ("Range", "bytes=5-")])
        XCTAssertEqual(bytes, "GET /a%20b?c=1 HTTP/1.1\r\nHost: h\r\nRange: bytes=5-\r\n\r\n")
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 206 Partial Content\r\nContent-Length: 0\r\n\r\n"))
        let status = try await sink.responseHead().status
        XCTAssertEqual(status, .partialContent)
    }

    func testAHeaderThatCouldSplitTheRequestIsRefusedInWords() async throws {
        let bad: [(String, String)] = [
            ("X-Split", "a\r\nEvil: 1"), ("X-LF", "a\nb"), ("X-CR", "a\rb"), ("X-NUL", "a\u{0}b"),
            ("Bad Name", "v"), ("Bad:Name", "v"),
        ]
        for header in bad {
            let (bytes, sink, channel) = try await send("/f", [("Host", "h"), header])
            XCTAssertFalse(bytes.contains("Evil"), "nothing of \(header) was sent")
            do {
                _ = try await sink.responseHead()
                XCTFail("\(header) was sent")
            } catch {
                let failure = TransferFailure.classify(error, stallTimeout: .seconds(30))
                XCTAssertFalse(failure.isTransient)
                XCTAssertTrue(failure.description.hasPrefix("a request header holds"), failure.description)
            }
            XCTAssertFalse(channel.isActive, "the connection is not used again")
        }
    }

    /// NIO's encoder writes the target as it is; the URL's split percent-encodes whatever could
    /// split the request line, so nothing a URL holds reaches it raw.
    func testATargetNeverHoldsWhatWouldSplitTheRequestLine() throws {
        for url in ["http://h/a b", "http://h/a\r\nHost: evil", "http://h/a\u{7F}", "http://h/a\tb?q=\n"] {
            let target = try XCTUnwrap(CleartextHTTPClient.Target(url: url), url.debugDescription)
            XCTAssertTrue(target.uri.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }, target.uri.debugDescription)
        }
    }
}
