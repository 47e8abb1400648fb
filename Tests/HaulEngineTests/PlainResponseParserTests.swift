import HaulCore
import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import HaulEngine

/// The plain client's response parser: framing, keep-alive, what it refuses, and the same
/// reading as NIO's `HTTPResponseDecoder` (which it replaced) for well-formed responses of every
/// framing, split at random points.
final class PlainResponseParserTests: XCTestCase {
    /// What the parser made of one response.
    private struct Reading: Equatable {
        var status: UInt?
        var headers: [String] = []
        var body: [UInt8] = []
        /// The end's keep-alive verdict; nil while the response has not ended.
        var keepAlive: Bool?
    }

    /// Feeds `text`'s bytes in pieces cut at `cuts`, then (with `close`) ends the connection.
    private func read(
        _ bytes: [UInt8], cuts: [Int] = [], bodiless: Bool = false, close: Bool = false
    ) throws(TransferError) -> Reading {
        var parser = PlainResponseParser()
        parser.expectResponse(bodiless: bodiless)
        var reading = Reading()
        func take(_ part: PlainResponseParser.Part) {
            switch part {
            case .head(let head):
                XCTAssertNil(reading.status, "one head")
                reading.status = head.status.code
                reading.headers = head.headers.map { "\($0.name): \($0.value)" }
            case .body(let buffer):
                XCTAssertNil(reading.keepAlive, "no body after the end")
                reading.body += Array(buffer.readableBytesView)
            case .end(let keepAlive):
                XCTAssertNil(reading.keepAlive, "one end")
                reading.keepAlive = keepAlive
            }
        }
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start {
            parser.receive(ByteBuffer(bytes: bytes[start..<cut]))
            start = cut
            while let part = try parser.next() { take(part) }
        }
        if close, let part = try parser.connectionClosed() { take(part) }
        return reading
    }

    private func read(_ text: String, cuts: [Int] = [], bodiless: Bool = false, close: Bool = false)
        throws(TransferError) -> Reading
    {
        try read(Array(text.utf8), cuts: cuts, bodiless: bodiless, close: close)
    }

    /// The message of the error reading `text` throws, and whether it is retried.
    private func failure(_ text: String, close: Bool = false, file: StaticString = #filePath, line: UInt = #line)
        -> TransferError?
    {
        do {
            let reading = try read(text, close: close)
            XCTFail("read as \(reading)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testAHeadAndItsLengthOfBodyReadTheSameInAnyPieces() throws {
        let text =
            "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nETag:  \"x y\"\t\r\nX-Empty:\r\nX-Bytes: "
            + "caf\u{e9}\r\n\r\nhello world"
        let whole = try read(text)
        XCTAssertEqual(
            whole,
            Reading(
                status: 200,
                headers: ["Content-Length: 11", "ETag: \"x y\"", "X-Empty: ", "X-Bytes: caf\u{e9}"],
                body: Array("hello world".utf8),
                keepAlive: true
            ))
        let count = text.utf8.count
        for cut in 0...count {
            XCTAssertEqual(try read(text, cuts: [cut]), whole, "cut at \(cut)")
        }
        XCTAssertEqual(try read(text, cuts: Array(0...count)), whole, "a byte at a time")
    }

    func testAChunkedBodyLosesItsFramingAndTrailer() throws {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n1;name=\"v\"\r\n \r\nA \r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n"
        let whole = try read(text)
        XCTAssertEqual(whole.body, Array("hello 0123456789".utf8))
        XCTAssertEqual(whole.keepAlive, true)
        for cut in 0...text.utf8.count {
            XCTAssertEqual(try read(text, cuts: [cut]), whole, "cut at \(cut)")
        }
        XCTAssertEqual(try read(text, cuts: Array(0...text.utf8.count)), whole, "a byte at a time")
        // Bare line feeds end lines too.
        XCTAssertEqual(try read("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n").body, Array("abc".utf8))
    }

    func testInformationalResponsesAreSkipped() throws {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 "
            + "OK\r\nContent-Length: 2\r\n\r\nok"
        XCTAssertEqual(
            try read(text),
            Reading(status: 200, headers: ["Content-Length: 2"], body: Array("ok".utf8), keepAlive: true))
        XCTAssertEqual(failure("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n")?.isTransient, false)
    }

    func testSomeResponsesHaveNoBodyWhateverTheirHeadSays() throws {
        for status in ["204 No Content", "304 Not Modified"] {
            let reading = try read("HTTP/1.1 \(status)\r\nContent-Length: 5\r\n\r\n")
            XCTAssertEqual(reading.body, [])
            XCTAssertEqual(reading.keepAlive, true)
        }
        let head = try read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", bodiless: true)
        XCTAssertEqual(head.keepAlive, true)
        XCTAssertEqual(try read("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").keepAlive, true)
    }

    func testWhetherTheConnectionCanBeReused() throws {
        XCTAssertEqual(try read("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").keepAlive, false)
        XCTAssertEqual(
            try read("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: Keep-Alive, CLOSE\r\n\r\n").keepAlive, false)
        XCTAssertEqual(try read("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").keepAlive, false)
        XCTAssertEqual(
            try read("HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n").keepAlive, true)
        // Both framings: chunked wins and the connection is not trusted again.
        let both = try read(
            "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n")
        XCTAssertEqual(both.body, Array("ab".utf8))
        XCTAssertEqual(both.keepAlive, false)
        // Bytes after the end: not another request on this connection, and not read.
        var parser = PlainResponseParser()
        parser.expectResponse()
        parser.receive(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n"))
        guard case .head? = try parser.next(), case .body? = try parser.next(),
            case .end(keepAlive: false)? = try parser.next()
        else {
            return XCTFail("a response, not to be followed by another")
        }
        XCTAssertThrowsError(try parser.next())
    }

    func testABodyWithoutALengthEndsWithTheConnection() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it"
        let open = try read(text)
        XCTAssertEqual(open.body, Array("all of it".utf8))
        XCTAssertNil(open.keepAlive, "not over while the connection is open")
        XCTAssertEqual(try read(text, close: true).keepAlive, false)
    }

    func testABodyCutShortIsRetriedAndAHeadCutShortIsLeftToTheCaller() throws {
        for text in [
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: t\r\n",
        ] {
            let error = failure(text, close: true)
            XCTAssertEqual(error?.isTransient, true, text)
            XCTAssertEqual(error?.description, "the connection closed before the body was complete")
        }
        XCTAssertEqual(try read("HTTP/1.1 200 OK\r\nContent-Le", close: true), Reading())
    }

    func testMalformedResponsesFailForGood() {
        let long = String(repeating: "a", count: PlainResponseParser.maxHeadSize)
        let bad = [
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Long: \(long)\r\n\r\nx",
            "HTTP/1.1 200 OK\r\nX-Long: \(long)",
            "HTTP/2.0 200 OK\r\n\r\n",
            "HTTP/1.1 20 OK\r\n\r\n",
            "HTTP/1.1 099 Low\r\n\r\n",
            "HTTP/1.1 2000 OK\r\n\r\n",
            "HTTP/1.1 200 OK\u{1}\r\n\r\n",
            "ICY 200 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNo colon\r\n\r\n",
            "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX-NUL: a\u{0}b\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX-CR: a\rb\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\nab",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1234567890123456789\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\nhello\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;\(long)\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Long: \(long)\r\n\r\n",
        ]
        for text in bad {
            let error = failure(text)
            XCTAssertEqual(error?.isTransient, false, String(text.prefix(80)))
            XCTAssertTrue(
                error?.description.hasPrefix("malformed response from the server (") == true, String(describing: error))
        }
    }

    func testBytesWithNoRequestOutstandingAreRefused() throws {
        var parser = PlainResponseParser()
        parser.receive(ByteBuffer(string: "HTTP/1.1 200 OK\r\n\r\n"))
        XCTAssertThrowsError(try parser.next())
        // And after a response, nothing more is read until the next request.
        var reused = PlainResponseParser()
        reused.expectResponse()
        reused.receive(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        guard case .head? = try reused.next(), case .end(keepAlive: true)? = try reused.next() else {
            return XCTFail("one response")
        }
        XCTAssertNil(try reused.next())
        reused.expectResponse()
        reused.receive(ByteBuffer(string: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
        guard case .head(let second)? = try reused.next() else { return XCTFail("a second head") }
        XCTAssertEqual(second.status, .notFound)
    }

    // MARK: Against NIO's decoder

    /// What NIO's `HTTPResponseDecoder` reads from `bytes` as the response to a GET.
    private func nioRead(_ bytes: [UInt8], cuts: [Int], close: Bool) throws -> Reading {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(HTTPRequestEncoder())
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPResponseDecoder()))
        try channel.writeOutbound(
            HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")))
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<cut]))
            start = cut
        }
        if close { channel.pipeline.fireChannelInactive() }
        var reading = Reading()
        var keepAlive = false
        while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
            switch part {
            case .head(let head):
                reading.status = head.status.code
                reading.headers = head.headers.map { "\($0.name): \($0.value)" }
                keepAlive = head.isKeepAlive
            case .body(let buffer):
                reading.body += Array(buffer.readableBytesView)
            case .end:
                reading.keepAlive = keepAlive
            }
        }
        _ = try? channel.finish()
        return reading
    }

    func testWellFormedResponsesReadAsNIOReadsThem() throws {
        var random = SplitMix64(seed: 0x5EED_0006)
        let names = [
            "ETag", "Last-Modified", "Content-Type", "Content-Disposition", "X-Custom_1", "set-cookie", "Accept-Ranges",
            "Via",
        ]
        let valueBytes = Array("abc XYZ 019 \"quoted\" ;=,/:\t-_.~%\u{e9}日本".utf8)
        for round in 0..<400 {
            var head = "HTTP/1.\(round % 5 == 0 ? 0 : 1) \([200, 206, 404, 500, 203][round % 5]) Some Reason\r\n"
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let name = names.randomElement(using: &random)!
                // A value of whole UTF-8 characters, without blanks at its ends (both readers trim them).
                var value = String(
                    decoding: (0..<Int.random(in: 0...20, using: &random)).map { _ in
                        valueBytes.randomElement(using: &random)!
                    }, as: UTF8.self)
                value = String(value.unicodeScalars.filter { $0 != "\u{FFFD}" }.map(Character.init))
                value = value.trimmingCharacters(in: [" ", "\t"])
                head += "\(name): \(Bool.random(using: &random) ? " " : "")\(value)\r\n"
            }
            let body = (0..<Int.random(in: 0...300, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            var bytes: [UInt8]
            let close: Bool
            switch round % 3 {
            case 0:
                bytes = Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
                close = false
            case 1:
                bytes = Array((head + (round % 5 == 0 ? "" : "Transfer-Encoding: chunked\r\n") + "\r\n").utf8)
                if round % 5 == 0 {
                    bytes += body // HTTP/1.0 without a length: until the connection closes
                    close = true
                } else {
                    var rest = body[...]
                    while !rest.isEmpty {
                        let size = Int.random(in: 1...max(1, rest.count), using: &random)
                        bytes +=
                            Array("\(String(size, radix: 16, uppercase: Bool.random(using: &random)))\r\n".utf8)
                            + rest.prefix(size) + Array("\r\n".utf8)
                        rest = rest.dropFirst(size)
                    }
                    bytes += Array("0\r\n\r\n".utf8)
                    close = false
                }
            default:
                bytes = Array((head + "Connection: close\r\n\r\n").utf8) + body
                close = true
            }
            let cuts = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Int.random(in: 0...bytes.count, using: &random)
            }
            let nio = try nioRead(bytes, cuts: cuts, close: close)
            let ours = try read(bytes, cuts: cuts, close: close)
            XCTAssertNotNil(nio.keepAlive, "NIO read a whole response in round \(round)")
            XCTAssertEqual(ours, nio, "round \(round): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
    }
}
