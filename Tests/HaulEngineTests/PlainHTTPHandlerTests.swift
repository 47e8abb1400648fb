import Foundation
import HaulTestSupport
import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest
@testable import HaulEngine

/// The connection handler on an `EmbeddedChannel`: which reads it asks the socket for, while a
/// response's body waits for its plan and after.
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

        let limit = PlainHTTPHandler.readAhead
        let body = (0..<(limit + 100_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let sink = ResponseSink(loop: channel.embeddedEventLoop, throttle: Throttle(), progressInterval: 60)
        handler.start(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/f.bin"), reused: false, sink: sink)
        XCTAssertEqual(counter.reads, 1, "the request asks for the response")

        // The head and a first piece of the body arrive; the plan is not known yet.
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n"))
        let head = try await sink.responseHead()
        XCTAssertEqual(head.head.status, .ok)
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

        // The plan arrives: what was read ahead is written, and reading goes on.
        let dir = TestDirectory("plainhttp-handler")
        let path = dir.path + "/f.bin.part"
        let part = try PartFile(path: path, truncate: true)
        defer { part.close() }
        head.plan.succeed(.write(part.writer(dropBehind: false), offset: 0, total: Int64(body.count)))
        XCTAssertGreaterThan(counter.reads, readsAtLimit)
        XCTAssertEqual(PartFile.size(at: path), Int64(sent))
        try send(body.count - sent)

        guard case .finished(let size) = try await sink.nextEvent() else { return XCTFail("not finished") }
        XCTAssertEqual(size, Int64(body.count))
        XCTAssertEqual(TestFiles.contents(path), Data(body))
    }
}
