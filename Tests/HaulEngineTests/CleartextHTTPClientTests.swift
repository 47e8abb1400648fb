import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// The cleartext client against nginx: connections kept alive between files, and a
/// connection the server closed while idle replaced without the download noticing.
final class CleartextHTTPClientTests: EngineTestCase {
    var nginx: NginxServer!
    var www: String!

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, keepaliveTimeout: "1s", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    func testManySmallFilesShareAFewKeptAliveConnections() async throws {
        let count = 40
        for i in 0..<count { try TestFiles.random(www + "/f\(i).bin", size: 1000 + i) }
        let engine = try makeEngine()
        _ = try await engine.perform(.setConcurrency(2))
        var ids: [DownloadID] = []
        for i in 0..<count { ids.append(try await add(engine, nginx.url("f\(i).bin"))) }
        await engine.start()
        for (i, id) in ids.enumerated() {
            let d = try await finished(engine, id)
            XCTAssertEqual(d.state, .finished, d.reason ?? "")
            assertSameContents(d.path!, www + "/f\(i).bin")
        }
        let log = nginx.accessLog()
        XCTAssertEqual(log.count, count)
        let connections = Set(log.map(\.connection))
        XCTAssertLessThanOrEqual(connections.count, 4, "\(count) requests on \(connections.count) connections")
    }

    func testAConnectionTheServerClosedWhileIdleIsReplaced() async throws {
        // nginx closes the kept-alive connection after 1 s of idleness.
        let (second, log) = try await twoDownloads(apart: 1.6)
        XCTAssertEqual(second.retries, 0)
        XCTAssertEqual(log.map(\.status), [200, 200])
        XCTAssertNotEqual(log[0].connection, log[1].connection)
    }

    func testHaulClosesAConnectionLeftUnusedPastItsIdleTimeout() async throws {
        // Past haul's 0.2 s, well before nginx's own 1 s.
        let (_, log) = try await twoDownloads(apart: 0.6) { $0.idleConnectionTimeout = .seconds(0.2) }
        XCTAssertEqual(log.count, 2)
        XCTAssertNotEqual(log.first?.connection, log.last?.connection, "the idle connection was closed, not reused")
    }

    func testAConnectionUsedWithinItsIdleTimeoutIsReused() async throws {
        let (_, log) = try await twoDownloads(apart: 0.3)
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log.first?.connection, log.last?.connection)
    }

    /// Downloads one file, waits `seconds`, downloads another; checks the second arrived whole
    /// without an error, and returns it with nginx's log of both requests.
    private func twoDownloads(
        apart seconds: Double, _ tune: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws -> (Download, [NginxServer.LogEntry]) {
        try TestFiles.random(www + "/a.bin", size: 5000)
        try TestFiles.random(www + "/b.bin", size: 6000)
        let engine = try makeEngine(tune)
        let a = try await add(engine, nginx.url("a.bin"))
        await engine.start()
        _ = try await finished(engine, a)
        try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        let b = try await add(engine, nginx.url("b.bin"))
        let d = try await finished(engine, b)
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        XCTAssertNil(d.lastError)
        assertSameContents(d.path!, www + "/b.bin")
        return (d, nginx.accessLog())
    }
}
