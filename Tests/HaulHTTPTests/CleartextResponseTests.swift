import Foundation
import HaulCore
import HaulTestSupport
import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import HaulHTTP

/// What the cleartext client makes of the responses a server sends, read by NIO's decoder in
/// front of the connection handler: the body written as it arrived in any pieces, framing taken
/// off, keep-alive rules, and every response it cannot frame safely failing for good.
final class CleartextResponseTests: XCTestCase {
    /// What reached the `.part` and the connection afterwards.
    private struct Reading: Equatable {
        var status: UInt
        var body: [UInt8]
        /// Whether the connection was offered for the next request.
        var reusable: Bool
    }

    private var directory: TestDirectory!

    override func setUp() {
        directory = TestDirectory("cleartext-response")
    }

    /// XCTest keeps every test case object until the run ends, so the folder goes with the test.
    override func tearDown() {
        directory = nil
    }

    /// Feeds `bytes` in pieces cut at `cuts` as the response to a GET (or a HEAD), then (with
    /// `close`) ends the connection; returns what the transfer would have written.
    private func read(_ bytes: [UInt8], cuts: [Int] = [], head: Bool = false, close: Bool = false) async throws
        -> Reading
    {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        var reusable = false
        let handler = CleartextConnectionHandler(
            stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in reusable = true },
            onClosed: { _ in })
        try channel.pipeline.syncOperations.addCleartextHTTPHandlers(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        let sink = ResponseSink(
            loop: channel.embeddedEventLoop, pacing: UnpacedReads(), clock: SystemClock(),
            progressInterval: .seconds(60))
        handler.start(
            HTTPRequestHead(version: .http1_1, method: head ? .HEAD : .GET, uri: "/f", headers: ["Host": "h"]),
            reused: false, sink: sink)
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<cut]))
            start = cut
        }
        if close { channel.pipeline.fireChannelInactive() }
        let status = try await sink.responseHead().status.code
        let path = directory.path + "/f-\(UUID().uuidString).part"
        let part = try TestFile(path: path)
        if case .streaming = try sink.startWriting(to: part, at: 0, total: nil) {
            while case .progress = try await sink.nextEvent() {}
        }
        return Reading(status: status, body: Array(TestFiles.contents(path) ?? Data()), reusable: reusable)
    }

    private func read(_ text: String, cuts: [Int] = [], head: Bool = false, close: Bool = false) async throws
        -> Reading
    {
        try await read(Array(text.utf8), cuts: cuts, head: head, close: close)
    }

    /// The error reading `text` ends in, as the engine classifies it.
    private func failure(_ text: String, close: Bool = false, line: UInt = #line) async -> TransferFailure? {
        do {
            let reading = try await read(text, close: close)
            XCTFail("read as \(reading)", line: line)
            return nil
        } catch {
            return TransferFailure.classify(error, stallTimeout: .seconds(30))
        }
    }

    func testABodyReadsTheSameInAnyPieces() async throws {
        let fixed = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nETag:  \"x y\"\t\r\nX-Empty:\r\n\r\nhello world"
        let chunked =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n1;name=\"v\"\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n"
        for (text, body) in [(fixed, "hello world"), (chunked, "hello 0123456789")] {
            let whole = try await read(text)
            XCTAssertEqual(whole, Reading(status: 200, body: Array(body.utf8), reusable: true))
            let count = text.utf8.count
            for cut in stride(from: 0, through: count, by: 7) {
                let reading = try await read(text, cuts: [cut])
                XCTAssertEqual(reading, whole, "cut at \(cut)")
            }
            let byteAtATime = try await read(text, cuts: Array(0...count))
            XCTAssertEqual(byteAtATime, whole, "a byte at a time")
        }
    }

    func testInformationalResponsesAreSkipped() async throws {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let reading = try await read(text)
        XCTAssertEqual(reading, Reading(status: 200, body: Array("ok".utf8), reusable: true))
    }

    func testSomeResponsesHaveNoBodyWhateverTheirHeadSays() async throws {
        for status in ["204 No Content", "304 Not Modified"] {
            let reading = try await read("HTTP/1.1 \(status)\r\nContent-Length: 5\r\n\r\n")
            XCTAssertEqual(reading.body, [])
            XCTAssertTrue(reading.reusable)
        }
        let head = try await read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", head: true)
        XCTAssertEqual(head.body, [])
        XCTAssertTrue(head.reusable)
    }

    func testWhetherTheConnectionCanBeReused() async throws {
        let cases: [(String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", false),
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: Keep-Alive, CLOSE\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n", true),
        ]
        for (text, reusable) in cases {
            let reading = try await read(text)
            XCTAssertEqual(reading.reusable, reusable, text)
        }
    }

    func testABodyWithoutALengthEndsWithTheConnection() async throws {
        let reading = try await read("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it", close: true)
        XCTAssertEqual(reading, Reading(status: 200, body: Array("all of it".utf8), reusable: false))
    }

    func testABodyCutShortIsRetried() async throws {
        for text in [
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
        ] {
            let error = await failure(text, close: true)
            XCTAssertEqual(error?.isTransient, true, text)
        }
    }

    /// Responses whose framing a server could use to confuse a client: each fails the download
    /// for good, in words, and is never written as if it were the file.
    func testResponsesThatCannotBeFramedSafelyFailForGood() async {
        let long = String(repeating: "a", count: 100 * 1024)
        let bad = [
            "HTTP/1.1 200 OK\r\nX-Long: \(long)\r\nContent-Length: 1\r\n\r\nx",
            "HTTP/1.1 20 OK\r\n\r\n",
            "HTTP/1.1 2000 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNo colon\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX-NUL: a\u{0}b\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\nab",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n",
        ]
        for text in bad {
            let error = await failure(text)
            XCTAssertEqual(error?.isTransient, false, String(text.prefix(80)))
            XCTAssertTrue(
                error?.description.hasPrefix("malformed response from the server (") == true,
                String(describing: error))
        }
    }

    /// Bytes the server sends after a response, before any request asked for them, close the
    /// connection instead of being read as the next request's response.
    func testBytesAfterAResponseAreNotTakenForTheNextOne() async throws {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        let handler = CleartextConnectionHandler(
            stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in }, onClosed: { _ in })
        try channel.pipeline.syncOperations.addCleartextHTTPHandlers(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        let sink = ResponseSink(
            loop: channel.embeddedEventLoop, pacing: UnpacedReads(), clock: SystemClock(),
            progressInterval: .seconds(60))
        handler.start(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/a"), reused: false, sink: sink)
        _ = try? channel.writeInbound(
            ByteBuffer(
                string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        let status = try await sink.responseHead().status
        XCTAssertEqual(status, .ok)
        XCTAssertFalse(channel.isActive, "an unasked-for response closes the connection")
    }
}
