import Foundation
import HaulCore
import HaulLoopback
import HaulTestSupport
import Synchronization
import XCTest

@testable import HaulEngine

/// Connections follow room: a download that started while its server was full gets more
/// connections once others on that server finish, instead of crawling on one to the end.
final class ConnectionRoomTests: FaultServerTestCase {
    func testTheThirdDownloadFromAFullServerGetsSeveralConnectionsOnceTheOthersFinish() async throws {
        let small = TestFiles.randomBytes(32 << 20)
        let large = TestFiles.randomBytes(48 << 20)
        // Every connection capped at about 3 MB/s (64 KiB every 20 ms).
        let server = try serve { request, _ in
            FaultServer.throttled(request.path.hasSuffix("large.bin") ? large : small, for: request)
        }
        let engine = try makeEngine()
        await engine.start()
        let first = try await add(engine, server.url("a.bin"))
        let second = try await add(engine, server.url("b.bin"))
        // Queued last: by the time it starts, the first two hold the server's 16 connections.
        _ = try await waitFor(engine, second) { ($0.activeConnections ?? 0) >= 6 }
        let third = try await add(engine, server.url("large.bin"))
        let started = try await waitFor(engine, third) { $0.state == .downloading && $0.receivedBytes > 0 }
        XCTAssertLessThanOrEqual(started.activeConnections ?? 1, 2, "the server was full when it started")
        for id in [first, second] {
            let d = try await finished(engine, id)
            XCTAssertEqual(d.state, .finished)
        }
        let d = try await waitFor(engine, third, timeout: 10) {
            ($0.activeConnections ?? 0) >= 4 || $0.state == .finished
        }
        XCTAssertNotEqual(d.state, .finished, "it was still downloading when room appeared")
        XCTAssertGreaterThanOrEqual(d.activeConnections ?? 0, 4)
        let done = try await finished(engine, third, timeout: 60)
        XCTAssertEqual(done.state, .finished)
    }

    func testADownloadEarlierInTheQueueIsNotLeftOnOneConnectionWhileLaterOnesHoldMany() async throws {
        // Large enough that the later two are still running when the first resumes.
        let bytes = TestFiles.randomBytes(64 << 20)
        let server = try serve { request, _ in FaultServer.throttled(bytes, for: request) }
        let engine = try makeEngine()
        await engine.start()
        // First in the queue, but paused while the two after it take the server's 16 connections.
        let first = try await add(engine, server.url("a.bin"), paused: true)
        let second = try await add(engine, server.url("b.bin"))
        let third = try await add(engine, server.url("c.bin"))
        // Both at once: one waited for after the other could have finished meanwhile.
        let deadline = Date().addingTimeInterval(30)
        while true {
            let later = await [engine.download(second), engine.download(third)]
            if later.allSatisfy({ ($0?.activeConnections ?? 0) >= 7 }) { break }
            guard Date() < deadline, later.allSatisfy({ $0?.state == .downloading || $0?.state == .waiting }) else {
                XCTFail("the later two did not hold the server's connections together: \(later)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = try await engine.perform(.resume(.ids([first])))
        let d = try await waitFor(engine, first, timeout: 10) { ($0.activeConnections ?? 0) >= 4 }
        XCTAssertGreaterThanOrEqual(d.activeConnections ?? 0, 4)
        let later = await [engine.download(second), engine.download(third)]
        XCTAssertTrue(
            later.allSatisfy { $0?.state == .downloading }, "the later ones gave connections back while running")
        for id in [first, second, third] {
            let done = try await finished(engine, id, timeout: 60)
            XCTAssertEqual(done.state, .finished)
        }
    }
}
