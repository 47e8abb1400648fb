import Foundation
import HaulTestSupport
import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest
@testable import HaulEngine

/// The connection handler and its response sink on an `EmbeddedChannel`: which reads it asks the
/// socket for while the transfer's task decides what to do with a response and after, and who
/// writes what was read ahead.
final class PlainHTTPHandlerTests: XCTestCase {
    /// Counts the reads the handler asks for (the channel runs with auto-read off).
    private final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    func testABodyIsReadAheadWhileItsPlanIsPendingUpToTheLimit() async throws {
        let channel = EmbeddedChannel()
        let counter = ReadCounter()
        let handler = PlainHTTPHandler(stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in }, onClosed: { _ in })
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
        try channel.pipeline.syncOperations.addHandler(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()

        let limit = ResponseSink.readAhead
        let body = (0..<(limit + 100_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let sink = ResponseSink(loop: channel.embeddedEventLoop, throttle: Throttle(), progressInterval: 60)
        handler.start(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/f.bin"), reused: false, sink: sink)
        XCTAssertEqual(counter.reads, 1, "the request asks for the response")

        // The head and a first piece of the body arrive; the plan is not known yet.
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n"))
        let head = try await sink.responseHead()
        XCTAssertEqual(head.status, .ok)
        var sent = 0
        func send(_ count: Int) throws {
            try channel.writeInbound(ByteBuffer(bytes: body[sent..<(sent + count)]))
            sent += count
        }
        let readsAfterHead = counter.reads
        XCTAssertGreaterThan(readsAfterHead, 1, "the body is read while the plan is pending")
        try send(limit / 2)
        XCTAssertGreaterThan(counter.reads, readsAfterHead, "under the limit it keeps reading")
        try send(limit / 2)
        let readsAtLimit = counter.reads
        try send(1000)
        XCTAssertEqual(counter.reads, readsAtLimit, "at the limit it stops asking")

        // The task chooses: what was read ahead is written on its thread, and reading goes on.
        let dir = TestDirectory("plainhttp-handler")
        let path = dir.path + "/f.bin.part"
        let part = try PartFile(path: path, truncate: true)
        defer { part.close() }
        XCTAssertEqual(try sink.startWriting(to: part.writer(dropBehind: false), at: 0, total: Int64(body.count)), 0)
        XCTAssertGreaterThan(counter.reads, readsAtLimit)
        XCTAssertEqual(PartFile.size(at: path), Int64(sent))
        try send(body.count - sent)

        guard case .finished(let size) = try await sink.nextEvent() else { return XCTFail("not finished") }
        XCTAssertEqual(size, Int64(body.count))
        XCTAssertEqual(TestFiles.contents(path), Data(body))
    }

    func testASmallBodyThatArrivedWholeIsWrittenByTheTaskAndTheConnectionIsFreeBeforeThat() async throws {
        let channel = EmbeddedChannel()
        var reusable = 0
        let handler = PlainHTTPHandler(stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in reusable += 1 }, onClosed: { _ in })
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
        try channel.pipeline.syncOperations.addHandler(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()

        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let sink = ResponseSink(loop: channel.embeddedEventLoop, throttle: Throttle(), progressInterval: 60)
        handler.start(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/small.bin"), reused: false, sink: sink)
        var response = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n")
        response.writeBytes(body)
        try channel.writeInbound(response)
        _ = try await sink.responseHead()
        XCTAssertEqual(reusable, 1, "the whole response was read: the connection can take the next request")

        let dir = TestDirectory("plainhttp-handler-small")
        let path = dir.path + "/small.bin.part"
        let part = try PartFile(path: path, truncate: true)
        defer { part.close() }
        _ = try sink.startWriting(to: part.writer(dropBehind: false), at: 0, total: Int64(body.count))
        XCTAssertEqual(PartFile.size(at: path), Int64(body.count), "written before startWriting returned")
        guard case .finished(let size) = try await sink.nextEvent() else { return XCTFail("not finished") }
        XCTAssertEqual(size, Int64(body.count))
        XCTAssertEqual(TestFiles.contents(path), Data(body))

        // The next request on the same connection goes to a new sink; the first one is untouched.
        let next = ResponseSink(loop: channel.embeddedEventLoop, throttle: Throttle(), progressInterval: 60)
        handler.start(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/empty"), reused: true, sink: next)
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        let nextHead = try await next.responseHead()
        XCTAssertEqual(nextHead.status, .ok)
        XCTAssertEqual(reusable, 2)
        XCTAssertEqual(TestFiles.contents(path), Data(body))
    }

    func testAFailureBeforeTheTaskChoseReachesItAndWritesNothing() async throws {
        let channel = EmbeddedChannel()
        let handler = PlainHTTPHandler(stallTimeout: .seconds(30), idleTimeout: .seconds(30), onReusable: { _ in }, onClosed: { _ in })
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
        try channel.pipeline.syncOperations.addHandler(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()

        let sink = ResponseSink(loop: channel.embeddedEventLoop, throttle: Throttle(), progressInterval: 60)
        handler.start(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/cut.bin"), reused: false, sink: sink)
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 1000)))
        _ = try await sink.responseHead()
        channel.pipeline.fireChannelInactive()

        let dir = TestDirectory("plainhttp-handler-cut")
        let path = dir.path + "/cut.bin.part"
        let part = try PartFile(path: path, truncate: true)
        defer { part.close() }
        _ = try sink.startWriting(to: part.writer(dropBehind: false), at: 0, total: 5000)
        XCTAssertEqual(PartFile.size(at: path), 0, "a failed request writes nothing after its failure")
        do {
            _ = try await sink.nextEvent()
            XCTFail("the request's failure should reach the task")
        } catch {
            // The HTTP decoder reports the body cut short before the handler sees the close.
            XCTAssertFalse(error is CancellationError, "\(error)")
        }
    }
}
