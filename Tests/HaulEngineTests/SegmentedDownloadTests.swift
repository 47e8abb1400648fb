import Foundation
import HaulCore
import HaulLoopback
import HaulTestSupport
import Synchronization
import XCTest

@testable import HaulEngine

/// Segmented downloads against a server written for the purpose: every connection capped, some
/// far slower, extra connections refused or answered with 429, a file that changes, ranges that
/// lie, segments cut short. Each ends byte-identical or failed with a reason, never mixed.
final class SegmentedDownloadTests: EngineTestCase {
    static let body = TestFiles.randomBytes(8 << 20)
    var body: [UInt8] { Self.body }
    var expected: String!

    override func setUp() async throws {
        try await super.setUp()
        let path = dir.path + "/expected.bin"
        _ = FileManager.default.createFile(atPath: path, contents: Data(body))
        expected = path
    }

    /// Connections open at the server now, and the most at once.
    final class ConnectionCount: Sendable {
        let open = Atomic<Int>(0)
        let peak = Atomic<Int>(0)

        /// Counts a connection now, if fewer than `limit` are open.
        func tryOpen(limit: Int = .max) -> Bool {
            var now = open.load(ordering: .relaxed)
            while now < limit {
                let (exchanged, current) = open.compareExchange(
                    expected: now, desired: now + 1, ordering: .relaxed)
                if exchanged {
                    _ = peak.max(now + 1, ordering: .relaxed)
                    return true
                }
                now = current
            }
            return false
        }

        /// Wraps `steps` of a connection counted by `tryOpen` so it is let go when it ends.
        func counted(_ steps: [FaultServer.Step]) -> [FaultServer.Step] {
            steps + [.atEnd { [self] in _ = open.subtract(1, ordering: .relaxed) }]
        }
    }

    func run(_ server: FaultServer, timeout: Double = 60) async throws -> Download {
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, server.url("file.bin"))
        return try await finished(engine, id, timeout: timeout)
    }

    func testCappedConnectionsAreUsedTogetherAndTheFileIsIdentical() async throws {
        let count = ConnectionCount()
        let server = try FaultServer { [body] request, _ in
            _ = count.tryOpen()
            return count.counted(FaultServer.throttled(body, for: request))
        }
        defer { server.stop() }
        let d = try await run(server)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        XCTAssertGreaterThanOrEqual(count.peak.load(ordering: .relaxed), 4, "several connections at once")
        XCTAssertNil(d.segments, "a finished download keeps no map")
        XCTAssertTrue(server.requests.dropFirst().allSatisfy { $0.headers["if-range"] == "\"v1\"" })
    }

    func testOneConnectionInFourSixteenTimesSlowerDoesNotHoldTheDownloadBack() async throws {
        let slowConnections = Mutex<Set<Int>>([])
        let server = try FaultServer { [body] request, index in
            // Every fourth connection is 16 times slower than the others.
            let slow = index % 4 == 3
            if slow { slowConnections.withLock { _ = $0.insert(index) } }
            return FaultServer.throttled(body, for: request, pause: slow ? 0.32 : 0.02)
        }
        defer { server.stop() }
        let d = try await run(server)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        // A slow connection's range was handed on: a later request starts inside it.
        let requests = server.requests
        let slowRanges = slowConnections.withLock { $0 }.compactMap {
            FaultServer.requestedRange(requests[$0], count: body.count)
        }
        let later = requests.compactMap { FaultServer.requestedRange($0, count: body.count)?.lowerBound }
        XCTAssertTrue(
            slowRanges.contains { slow in later.contains { $0 > slow.lowerBound && $0 < slow.upperBound } },
            "another connection took over part of a slow one's piece")
    }

    func testAServerThatServesRangesToOneConnectionAtATimeEndsWithFewer() async throws {
        let count = ConnectionCount()
        let server = try FaultServer { [body] request, _ in
            // With another connection open, a range request gets the whole file.
            let busy = !count.tryOpen(limit: 1)
            if busy { _ = count.tryOpen() }
            var plain = request
            if busy { plain.headers["range"] = nil }
            return count.counted(FaultServer.throttled(body, for: plain))
        }
        defer { server.stop() }
        let d = try await run(server)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        XCTAssertEqual(d.lastError, nil)
    }

    func testExtraConnectionsAnsweredWith429LeaveTheDownloadOnTheOthers() async throws {
        let count = ConnectionCount()
        let server = try FaultServer { [body] request, _ in
            // Two connections at a time; the third gets 429.
            guard count.tryOpen(limit: 2) else {
                return [.send(FaultServer.head(429, [("Retry-After", "1"), ("Content-Length", "0")]))]
            }
            return count.counted(FaultServer.throttled(body, for: request))
        }
        defer { server.stop() }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, server.url("file.bin"))
        let turnedAway = try await waitFor(engine, id) {
            if case .fewerConnections(_, .status(429))? = $0.notice { return true }
            return $0.state == .finished
        }
        XCTAssertNotEqual(turnedAway.state.kind, .failed)
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        XCTAssertLessThanOrEqual(count.peak.load(ordering: .relaxed), 2)
    }

    func testAFileThatChangesMidwayStartsOverOnOneConnectionAndSaysSo() async throws {
        let changed: [UInt8] = body.map { $0 ^ 0x5A }
        let server = try FaultServer { [body] request, index in
            // From the fourth request on the server has a new version of the file.
            index < 3
                ? FaultServer.throttled(body, for: request)
                : FaultServer.throttled(changed, for: request, etag: "\"v2\"")
        }
        defer { server.stop() }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, server.url("file.bin"))
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        XCTAssertEqual(sha256(try XCTUnwrap(d.path)), SHA256Hex.of(changed), "the new version, whole")
        XCTAssertEqual(d.notice, .startedOver(.remoteChanged))
        XCTAssertEqual(d.etag, "\"v2\"")
    }

    func testAServerWithoutValidatorsWhoseBytesChangeOnEveryRequestGivesOneVersion() async throws {
        let versions = Mutex<[Int: [UInt8]]>([:])
        let server = try FaultServer { [body] request, index in
            // No ETag, no Last-Modified, and another version of the file for each request.
            let version = body.map { $0 ^ UInt8(truncatingIfNeeded: index + 1) }
            versions.withLock { $0[index] = version }
            return FaultServer.throttled(version, for: request, etag: nil)
        }
        defer { server.stop() }
        let d = try await run(server)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        let got = try XCTUnwrap(FileManager.default.contents(atPath: try XCTUnwrap(d.path)))
        let whole = versions.withLock { $0.values.contains { Data($0) == got } }
        XCTAssertTrue(whole, "the file is one version the server sent, whole")
        XCTAssertEqual(d.notice, .startedOver(.remoteChanged))
    }

    /// A server that caps each connection by sending a second's worth at once: the bursts wait at
    /// the download's own limit, but the download goes at two thirds of it, so the limit is not
    /// what holds it back: more connections are added, and kept once they reach the limit, though
    /// that is less than the gain asked of connections without one.
    func testALimitAboveWhatOneConnectionGetsInBurstsGetsMoreConnectionsAndKeepsThem() async throws {
        let count = ConnectionCount()
        let server = try FaultServer { [body] request, _ in
            _ = count.tryOpen()
            return count.counted(FaultServer.throttled(body, for: request, chunk: 1 << 20, pause: 0.5))
        }
        defer { server.stop() }
        let engine = try makeEngine()
        await engine.start()
        let ids = try await engine.perform(
            .add([DownloadRequest(url: server.url("file.bin"), directory: dir.path, speedLimit: 3 << 20)]))
        let id = try XCTUnwrap(ids.first)
        let late = try await waitFor(engine, id) { $0.receivedBytes >= 13 << 19 || $0.state == .finished }
        XCTAssertGreaterThan(late.activeConnections ?? 0, 1, "still more than one, past their judging")
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        XCTAssertGreaterThan(count.peak.load(ordering: .relaxed), 1, "more connections under a limit they stay under")
    }

    func testAServerWithoutValidatorsThatSendsTheSameBytesStillGetsSeveralConnections() async throws {
        let count = ConnectionCount()
        let server = try FaultServer { [body] request, _ in
            _ = count.tryOpen()
            return count.counted(FaultServer.throttled(body, for: request, etag: nil))
        }
        defer { server.stop() }
        let d = try await run(server)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        XCTAssertNil(d.notice)
        XCTAssertGreaterThan(count.peak.load(ordering: .relaxed), 2, "checked connections are used together")
    }

    func testAResumeFromAServerWithoutValidatorsThatNowSendsOtherBytesStartsOverWhole() async throws {
        let changed: [UInt8] = body.map { $0 ^ 0x5A }
        let afterPause = Atomic<Bool>(false)
        let server = try FaultServer { [body] request, _ in
            // Slow until the pause, so the wait below sees the download split before it ends.
            let resumed = afterPause.load(ordering: .relaxed)
            return FaultServer.throttled(
                resumed ? changed : body, for: request, etag: nil, pause: resumed ? 0.02 : 0.25)
        }
        defer { server.stop() }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, server.url("file.bin"))
        _ = try await waitFor(engine, id) { ($0.segments?.count ?? 0) > 1 && $0.receivedBytes > 2 << 20 }
        try await engine.perform(.pause(.ids([id])))
        afterPause.store(true, ordering: .relaxed)
        try await engine.perform(.resume(.ids([id])))
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        XCTAssertEqual(sha256(try XCTUnwrap(d.path)), SHA256Hex.of(changed), "the new version, whole")
        XCTAssertEqual(d.notice, .startedOver(.remoteChanged))
    }

    func testARangeResponseForOtherBytesIsNeverWritten() async throws {
        let server = try FaultServer { [body] request, index in
            // Every extra connection is told it gets bytes a mebibyte later than it does.
            index == 0
                ? FaultServer.throttled(body, for: request)
                : FaultServer.throttled(body, for: request, lie: .shiftedRange(by: 1 << 20))
        }
        defer { server.stop() }
        let d = try await run(server)
        // The first connection's piece is cut before the extra responses are judged; once no
        // range can be trusted the file is fetched again, whole, on one connection.
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        XCTAssertEqual(d.notice, .startedOver(.rangeMismatch))
        XCTAssertNil(server.requests.last?.headers["range"], "the last request asked for the whole file")
    }

    func testSegmentsCutShortAreFetchedAgainFromWhereTheyStopped() async throws {
        let server = try FaultServer { [body] request, index in
            // Every other range request stops a tenth of the way and closes the connection.
            let short = index % 2 == 1 && request.headers["range"] != nil
            return FaultServer.throttled(body, for: request, lie: short ? .cutShort(0.1) : nil)
        }
        defer { server.stop() }
        let d = try await run(server)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expected)
        // Each range cut short is asked for again from inside it, where its bytes stopped (how
        // many ranges there are depends on how fast the machine is).
        let starts = server.requests.map { request -> (Int64, Int64)? in
            guard let range = request.headers["range"], range.hasPrefix("bytes=") else { return nil }
            let bounds = range.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
            guard let start = Int64(bounds[0]) else { return nil }
            return (start, bounds.count > 1 ? Int64(bounds[1]) ?? .max : .max)
        }
        let cut = starts.indices.filter { $0 % 2 == 1 && starts[$0] != nil }
        XCTAssertFalse(cut.isEmpty, "no range was cut short")
        for index in cut {
            let (start, end) = starts[index]!
            XCTAssertTrue(
                starts[(index + 1)...].contains { $0.map { $0.0 > start && $0.0 <= end } ?? false },
                "the range from \(start) cut short was not asked for again from where it stopped")
        }
    }

    func testAPauseBeforeAnyMapWasSyncedKeepsWhatWasWritten() async throws {
        let server = try FaultServer { [body] request, _ in FaultServer.throttled(body, for: request) }
        defer { server.stop() }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, server.url("file.bin"))
        // The first map (it claims nothing) is there as soon as the first extra connection is.
        try await waitFor(engine, id) { $0.segments != nil }
        try await engine.perform(.pause(.ids([id])))
        let pausedDownload = await engine.download(id)
        let paused = try XCTUnwrap(pausedDownload)
        let map = try XCTUnwrap(paused.segments)
        XCTAssertGreaterThan(map.received, 0, "the pause saved where every piece got to")
        XCTAssertEqual(paused.receivedBytes, map.received)
    }

    func testAPausedSegmentedDownloadResumesEveryPieceWhereItStopped() async throws {
        let resumed = Atomic<Bool>(false)
        let server = try FaultServer { [body] request, _ in
            // Slow until the pause, so the wait below sees the download split before it ends.
            FaultServer.throttled(body, for: request, pause: resumed.load(ordering: .relaxed) ? 0.02 : 0.25)
        }
        defer { server.stop() }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, server.url("file.bin"))
        let split = try await waitFor(engine, id) { ($0.segments?.count ?? 0) > 1 && $0.receivedBytes > 2 << 20 }
        try await engine.perform(.pause(.ids([id])))
        let pausedDownload = await engine.download(id)
        let paused = try XCTUnwrap(pausedDownload)
        let map = try XCTUnwrap(paused.segments, "\(split)")
        XCTAssertTrue(map.isMap(ofSize: Int64(body.count)))
        XCTAssertEqual(paused.receivedBytes, map.received)
        // What the map claims is on disk, byte for byte.
        let part = try XCTUnwrap(FileManager.default.contents(atPath: try XCTUnwrap(paused.partPath)))
        for segment in map where segment.received > 0 {
            let range = Int(segment.start)..<Int(segment.next)
            XCTAssertEqual(Array(part[range]), Array(body[range]), "piece at \(segment.start)")
        }
        let before = server.requests.count
        resumed.store(true, ordering: .relaxed)
        try await engine.perform(.resume(.ids([id])))
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished)
        assertSameContents(try XCTUnwrap(d.path), expected)
        // Nothing the map claimed was asked for again.
        for request in server.requests[before...] {
            guard let asked = FaultServer.requestedRange(request, count: body.count) else {
                return XCTFail("a request for the whole file after the pause")
            }
            for segment in map where segment.received > 0 {
                XCTAssertFalse(
                    asked.overlaps(Int(segment.start)..<Int(segment.next)), "\(asked) asks again for \(segment)")
            }
        }
    }
}

/// The hex SHA-256 of bytes in memory.
enum SHA256Hex {
    static func of(_ bytes: [UInt8]) -> String {
        let dir = TestDirectory("haul-sha")
        let path = dir.path + "/bytes"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return (try? FileChecksum.digest(of: path, .sha256)) ?? ""
    }
}
