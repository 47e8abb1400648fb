import Foundation
import HaulTestSupport
import XCTest

/// A list of small files from one host, as `haul add -i` and `haul run` fetch it, from servers at
/// both ends of keep-alive: one that closes every connection after one request, and one that
/// keeps them open as long as the client likes. Every file ends identical either way, and a
/// connection the server keeps is used for more than one file.
final class KeepAliveListTests: CLITestCase {
    let count = 120
    var nginx: NginxServer?

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    /// nginx with `lines` in its server block, serving `count` files of a few KiB each.
    func serve(_ lines: String, keepaliveTimeout: String = "75s") async throws -> (NginxServer, [String]) {
        let www = dir.subdirectory("www")
        let names = makeSmallFiles(count, in: www) { 2048 + $0 * 37 }
        let nginx = try await NginxServer(
            root: www, keepaliveTimeout: keepaliveTimeout, workDirectory: dir.subdirectory("nginx"),
            serverLines: { _ in lines })
        self.nginx = nginx
        return (nginx, names)
    }

    /// Adds the list and runs it eight at a time; fails unless every file is identical.
    func fetchAll(_ nginx: NginxServer, _ names: [String]) async throws {
        try await addList(names.map { nginx.url($0) })
        try await runAndCompare(names, from: dir.path + "/www", jobs: 8)
    }

    func testAServerThatClosesEveryConnectionAfterOneRequestLosesNoFile() async throws {
        let (nginx, names) = try await serve("keepalive_requests 1;")
        try await fetchAll(nginx, names)
        let log = nginx.accessLog().filter { $0.status == 200 }
        // The server did close each one: as many connections as files.
        XCTAssertEqual(Set(log.map(\.connection)).count, log.count)
        XCTAssertEqual(Set(log.map(\.uri)).count, count)
    }

    func testAServerThatKeepsConnectionsForeverHasThemReusedAndLosesNoFile() async throws {
        let (nginx, names) = try await serve("", keepaliveTimeout: "3600s")
        try await fetchAll(nginx, names)
        let log = nginx.accessLog().filter { $0.status == 200 }
        XCTAssertEqual(Set(log.map(\.uri)).count, count)
        let connections = Set(log.map(\.connection)).count
        // Eight at a time over kept connections (eight here): never more than the per-server
        // cap of connections (16), however many files.
        XCTAssertLessThanOrEqual(connections, 16, "\(connections) connections for \(count) files")
    }
}
