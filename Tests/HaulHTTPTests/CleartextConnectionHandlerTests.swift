import Foundation
import HaulCore
import HaulTestSupport
import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import HaulHTTP

/// The connection handler and its response sink on an `EmbeddedChannel`: which reads it asks the
/// socket for while the transfer's task decides what to do with a response and after, and who
/// writes what was read ahead.
final class CleartextConnectionHandlerTests: XCTestCase {
    /// Counts the reads the handler asks for (the channel runs with auto-read off).
    private final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// A connected channel with the HTTP codec and the handler (behind `counter`, if given).
    private func connection(
        counting counter: ReadCounter? = nil, stallTimeout: TimeAmount = .seconds(30),
        idleTimeout: TimeAmount = .seconds(30),
        onReusable: @escaping () -> Void = {}
    ) async throws -> (EmbeddedChannel, CleartextConnectionHandler) {
        let channel = EmbeddedChannel()
        let handler = CleartextConnectionHandler(
            stallTimeout: stallTimeout, idleTimeout: idleTimeout, onReusable: { _ in onReusable() }, onClosed: { _ in })
        if let counter { try channel.pipeline.syncOperations.addHandler(counter) }
        try channel.pipeline.syncOperations.addCleartextHTTPHandlers(handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        return (channel, handler)
    }

    /// Sends a GET for `uri` on the connection; its response goes to the sink returned.
    private func request(
        _ uri: String, on channel: EmbeddedChannel, to handler: CleartextConnectionHandler, reused: Bool = false,
        pacing: any ReadPacing = UnpacedReads()
    ) throws -> ResponseSink {
        let sink = ResponseSink(
            loop: channel.embeddedEventLoop, pacing: pacing, clock: SystemClock(), progressInterval: .seconds(60))
        handler.start(HTTPRequestHead(version: .http1_1, method: .GET, uri: uri), reused: reused, sink: sink)
        return sink
    }

    func testABodyIsReadAheadWhileItsPlanIsPendingUpToTheLimit() async throws {
        let counter = ReadCounter()
        let (channel, handler) = try await connection(counting: counter)

        let limit = ResponseSink.readAhead
        let body = (0..<(limit + 100_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let sink = try request("/f.bin", on: channel, to: handler)
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
        let dir = TestDirectory("cleartext-handler")
        let path = dir.path + "/f.bin.part"
        let part = try TestFile(path: path)
        guard
            case .streaming(let position) = try sink.startWriting(
                to: part, at: 0, total: Int64(body.count))
        else {
            return XCTFail("the body is still arriving")
        }
        XCTAssertEqual(position, Int64(limit), "what the sink read ahead, written by the task")
        XCTAssertGreaterThan(counter.reads, readsAtLimit)
        XCTAssertEqual(TestFiles.size(path), Int64(sent))
        try send(body.count - sent)

        guard case .finished(let size) = try await sink.nextEvent() else { return XCTFail("not finished") }
        XCTAssertEqual(size, Int64(body.count))
        XCTAssertEqual(TestFiles.contents(path), Data(body))
    }

    func testASmallBodyThatArrivedWholeIsWrittenByTheTaskAndTheConnectionIsFreeBeforeThat() async throws {
        var reusable = 0
        let (channel, handler) = try await connection(onReusable: { reusable += 1 })

        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let sink = try request("/small.bin", on: channel, to: handler)
        var response = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n")
        response.writeBytes(body)
        try channel.writeInbound(response)
        _ = try await sink.responseHead()
        XCTAssertEqual(reusable, 1, "the whole response was read: the connection can take the next request")

        let dir = TestDirectory("cleartext-handler-small")
        let path = dir.path + "/small.bin.part"
        let part = try TestFile(path: path)
        guard
            case .finished(let written, let capWait) = try sink.startWriting(
                to: part, at: 0, total: Int64(body.count))
        else {
            return XCTFail("the body had arrived whole")
        }
        XCTAssertEqual(written, Int64(body.count))
        XCTAssertEqual(capWait, .zero, "no speed cap")
        XCTAssertEqual(TestFiles.size(path), Int64(body.count), "written before startWriting returned")
        guard case .finished(let size) = try await sink.nextEvent() else { return XCTFail("not finished") }
        XCTAssertEqual(size, Int64(body.count))
        XCTAssertEqual(TestFiles.contents(path), Data(body))

        // The next request on the same connection goes to a new sink; the first one is untouched.
        let next = try request("/empty", on: channel, to: handler, reused: true)
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        let nextHead = try await next.responseHead()
        XCTAssertEqual(nextHead.status, .ok)
        XCTAssertEqual(reusable, 2)
        XCTAssertEqual(TestFiles.contents(path), Data(body))
    }

    /// A body that arrived whole is written at once; a speed cap then asks the task to wait for it.
    func testAWholeBodyUnderASpeedCapAsksTheTaskToWait() async throws {
        let (channel, handler) = try await connection()
        let pacing = TestPacing(rate: 16 * 1024)

        let sink = try request("/capped.bin", on: channel, to: handler, pacing: pacing)
        try channel.writeInbound(
            ByteBuffer(
                string: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "c", count: 100_000)))
        _ = try await sink.responseHead()
        let dir = TestDirectory("cleartext-handler-capped")
        let part = try TestFile(path: dir.path + "/capped.bin.part")
        guard
            case .finished(let size, let capWait) = try sink.startWriting(
                to: part, at: 0, total: 100_000)
        else {
            return XCTFail("the body had arrived whole")
        }
        XCTAssertEqual(size, 100_000)
        // 100,000 bytes at 16 KiB/s from an empty bucket: ~6.1 s.
        XCTAssertEqual(capWait.seconds, 100_000 / Double(16 * 1024), accuracy: 0.2)
    }

    func testWhatArrivedBeforeAFailureIsWrittenThenTheFailureReachesTheTask() async throws {
        let (channel, handler) = try await connection()

        let sink = try request("/cut.bin", on: channel, to: handler)
        try channel.writeInbound(
            ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 1000)))
        _ = try await sink.responseHead()
        channel.pipeline.fireChannelInactive()

        let dir = TestDirectory("cleartext-handler-cut")
        let path = dir.path + "/cut.bin.part"
        let part = try TestFile(path: path)
        guard
            case .streaming(let position) = try sink.startWriting(
                to: part, at: 0, total: 5000)
        else {
            return XCTFail("the body did not arrive whole")
        }
        XCTAssertEqual(position, 1000)
        XCTAssertEqual(
            TestFiles.contents(path), Data(String(repeating: "x", count: 1000).utf8), "kept: a retry resumes after it")
        do {
            _ = try await sink.nextEvent()
            XCTFail("the request's failure should reach the task")
        } catch {
            // The HTTP decoder reports the body cut short before the handler sees the close.
            XCTAssertFalse(error is CancellationError, "\(error)")
        }
    }

    /// The handler's timers run on the real clock; the embedded loop runs what is due once its
    /// own clock is moved up to the real one.
    private func waitAndRunTimers(_ channel: EmbeddedChannel, seconds: Double) {
        Thread.sleep(forTimeInterval: seconds)
        channel.embeddedEventLoop.advanceTime(to: .now())
    }

    /// One timer per connection watches for both a stalled response and a connection kept unused
    /// too long: armed by the first request, it still catches a stall of a later request on the
    /// same connection (moved earlier for it), and it closes the connection once idle.
    func testOneTimerCatchesAStallOnAReusedConnectionAndClosesItWhenIdle() async throws {
        let (channel, handler) = try await connection(stallTimeout: .milliseconds(300), idleTimeout: .seconds(30))

        let first = try request("/a", on: channel, to: handler)
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        _ = try await first.responseHead()
        // Idle for longer than the stall limit: that is no stall, and the connection stays open.
        waitAndRunTimers(channel, seconds: 0.4)
        XCTAssertTrue(channel.isActive, "an idle connection is not a stalled response")

        let second = try request("/b", on: channel, to: handler, reused: true)
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n"))
        _ = try await second.responseHead()
        let dir = TestDirectory("cleartext-handler-watchdog")
        let part = try TestFile(path: dir.path + "/b.part")
        _ = try second.startWriting(to: part, at: 0, total: 5000)
        waitAndRunTimers(channel, seconds: 0.1)
        XCTAssertTrue(channel.isActive, "not stalled yet")
        waitAndRunTimers(channel, seconds: 0.3)
        guard !channel.isActive else { return XCTFail("the stall was not noticed: the connection is still open") }
        do {
            _ = try await second.nextEvent()
            XCTFail("the stalled response should fail")
        } catch {
            XCTAssertTrue("\(error)".contains("stalled"), "\(error)")
        }

        // Kept unused past the idle limit: closed.
        let (idle, idleHandler) = try await connection(stallTimeout: .seconds(30), idleTimeout: .milliseconds(200))
        let only = try request("/c", on: idle, to: idleHandler)
        try idle.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        _ = try await only.responseHead()
        waitAndRunTimers(idle, seconds: 0.1)
        XCTAssertTrue(idle.isActive)
        waitAndRunTimers(idle, seconds: 0.2)
        XCTAssertFalse(idle.isActive, "closed after 0.2 s unused")
    }
}
