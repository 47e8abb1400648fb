import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import HaulEngine

/// The plain client's request bytes against NIO's own encoder and header validator, which they
/// replace: the same bytes for what may be sent, a refusal for what NIO refuses.
final class PlainRequestTests: XCTestCase {
    private func head(_ uri: String = "/f.bin", _ headers: [(String, String)] = []) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: HTTPHeaders(headers))
    }

    /// What NIO's client pipeline writes for `head` (and no body), or nil when it refuses it.
    private func nioBytes(_ head: HTTPRequestHead) throws -> [UInt8]? {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
        do {
            try channel.writeOutbound(HTTPClientRequestPart.head(head))
            try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        } catch {
            return nil
        }
        var bytes: [UInt8] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        return bytes
    }

    private func bytes(_ request: PlainRequest) -> [UInt8] {
        Array(request.bytes.readableBytesView)
    }

    func testTheBytesAreNIOsForWhatHaulSends() throws {
        let heads = [
            head("/f.bin", [("Host", "127.0.0.1:8080"), ("User-Agent", "haul/1.0"), ("Accept-Encoding", "identity")]),
            head(
                "/dir/%E6%97%A5%20x.bin?a=1&b=%2F",
                [("Host", "example.com"), ("Range", "bytes=100-"), ("If-Range", "\"abc\"")]),
            head(
                "/",
                [
                    ("Host", "[::1]:81"), ("Authorization", "Basic dTpw"), ("X-Tab", "a\tb"), ("X-Utf8", "日本"),
                    ("X-Empty", ""),
                ]),
            head("/no-headers"),
        ]
        for head in heads {
            let expected = try XCTUnwrap(try nioBytes(head), "NIO sends \(head.uri)")
            XCTAssertEqual(bytes(try PlainRequest(head)), expected, head.uri)
        }
        XCTAssertEqual(
            String(decoding: bytes(try PlainRequest(head("/a", [("Host", "h")]))), as: UTF8.self),
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
        )
    }

    func testAHeaderNIOWouldRefuseIsRefused() throws {
        let bad: [(String, String)] = [
            ("X-Split", "a\r\nEvil: 1"), ("X-LF", "a\nb"), ("X-CR", "a\rb"), ("X-NUL", "a\u{0}b"), ("X-DEL", "a\u{7F}"),
            ("X-Esc", "\u{1B}[2J"), ("Bad Name", "v"), ("Bad:Name", "v"), ("Bad\r\nName", "v"), ("Ä", "v"),
        ]
        for header in bad {
            let head = head("/f", [("Host", "h"), header])
            XCTAssertNil(try nioBytes(head), "NIO refuses \(header)")
            XCTAssertThrowsError(try PlainRequest(head), "haul refuses \(header)")
        }
        // Stricter than NIO (which sends ": v"): an empty name is not a token (RFC 9110 §5.1).
        XCTAssertThrowsError(try PlainRequest(head("/f", [("", "v")])))
    }

    func testATargetThatWouldSplitTheRequestLineIsRefused() {
        for uri in ["/a b", "/a\r\nHost: evil", "/a\nb", "/a\u{0}", "/a\u{7F}", "/a\tb", ""] {
            XCTAssertThrowsError(try PlainRequest(head(uri)), uri.debugDescription)
        }
    }

    /// On the wire: the handler writes the bytes as they are, and the decoder, told of the request,
    /// hands its response on.
    func testTheHandlerWritesTheBytesAndReadsTheResponse() async throws {
        let channel = EmbeddedChannel()
        let handler = PlainHTTPHandler(
            stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in }, onClosed: { _ in })
        try channel.pipeline.syncOperations.addPlainHTTPHandlers(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        let request = try PlainRequest(head("/f.bin", [("Host", "h")]))
        let sink = ResponseSink(loop: channel.embeddedEventLoop, throttle: Throttle(), progressInterval: 60)
        handler.start(request, reused: false, sink: sink)
        let written = try XCTUnwrap(try channel.readOutbound(as: ByteBuffer.self))
        XCTAssertEqual(written, request.bytes)
        XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self), "one write per request")

        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n"))
        let head = try await sink.responseHead()
        XCTAssertEqual(head.status, .notModified, "a 304 ends at its head whatever its length says")
        _ = try? channel.finish()
    }
}
