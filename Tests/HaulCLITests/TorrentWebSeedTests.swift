import Foundation
import HaulTestSupport
import XCTest

/// A torrent whose only source is a web seed (BEP 19) on nginx: haul fetches its pieces through
/// its own HTTP, so the proxy (Debian's tinyproxy), the host's headers and the speed limit hold
/// for them as for any download, and libtorrent checks each piece's hash.
final class TorrentWebSeedTests: TorrentTestCase {
    var nginx: NginxServer!
    var www: String!
    var proxy: ChildProcess?

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await proxy?.terminate()
        await nginx?.stop()
        try await super.tearDown()
    }

    /// tinyproxy on loopback; its log records each request it carries.
    func startTinyproxy() async throws -> (port: Int, log: String) {
        let port = FreePort.find()
        let log = dir.path + "/tinyproxy.log"
        try """
        Port \(port)
        Listen 127.0.0.1
        Timeout 60
        LogFile "\(log)"
        LogLevel Info
        Allow 127.0.0.1
        """.write(toFile: dir.path + "/tinyproxy.conf", atomically: true, encoding: .utf8)
        proxy = try ChildProcess("/usr/bin/tinyproxy", ["-d", "-c", dir.path + "/tinyproxy.conf"], environment: [:])
        try await waitUntil { FreePort.isListening(port) }
        return (port, log)
    }

    func testAWebSeedOnlyTorrentComesThroughTheProxyWithTheHostsHeadersAndTheLimit() async throws {
        let folder = www + "/set"
        try FileManager.default.createDirectory(atPath: folder + "/sub dir", withIntermediateDirectories: true)
        try TestFiles.random(folder + "/a.bin", size: 300_000)
        try TestFiles.random(folder + "/sub dir/b c.bin", size: 200_001)
        let torrent = dir.path + "/set.torrent"
        // The seed's URL ends in a slash: each file is under it by the torrent's name and its path.
        let hash = try await swarm.makeTorrent(of: folder, to: torrent, pieceLength: 15, webSeed: nginx.url(""))
        XCTAssertFalse(hash.isEmpty)
        let (port, log) = try await startTinyproxy()
        var result = try await haul("proxy", "http://127.0.0.1:\(port)")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await haul("hosts", "--for", "127.0.0.1", "--header", "X-Secret: from-haul")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await haul("limit", "100K")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await haul("add", torrent)
        XCTAssertEqual(result.status, 0, result.stderr)
        let start = Date()
        result = try await haul("run", timeout: 90)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(sameFile(downloads + "/set/a.bin", folder + "/a.bin"))
        XCTAssertTrue(sameFile(downloads + "/set/sub dir/b c.bin", folder + "/sub dir/b c.bin"))
        // Every piece came through the proxy, with the host's header, at the limit (500 KB at
        // 100 KiB/s: about five seconds; libtorrent fetching them itself would take well under one).
        let carried = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(carried.contains("CONNECT 127.0.0.1:\(nginx.port)"), carried)
        let credentials = (try? String(contentsOfFile: dir.path + "/nginx/credentials.log", encoding: .utf8)) ?? ""
        let seedRequests = credentials.split(separator: "\n").filter { $0.hasPrefix("/set/") }
        XCTAssertFalse(seedRequests.isEmpty, credentials)
        XCTAssertTrue(seedRequests.allSatisfy { $0.hasSuffix("|from-haul") }, credentials)
        XCTAssertTrue(seedRequests.contains { $0.hasPrefix("/set/sub%20dir/b%20c.bin|") }, credentials)
        XCTAssertGreaterThan(seconds, 3.5, "500 KB at 100 KiB/s")
    }

    func testASeedThatSendsOtherBytesIsDroppedAndTheHonestOneFinishesTheFile() async throws {
        try FileManager.default.createDirectory(atPath: www + "/good", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: www + "/bad", withIntermediateDirectories: true)
        try TestFiles.random(www + "/good/disk.img", size: 400_000)
        try TestFiles.random(www + "/bad/disk.img", size: 400_000)
        let torrent = dir.path + "/disk.torrent"
        _ = try await swarm.makeTorrent(
            of: www + "/good/disk.img", to: torrent, pieceLength: 15,
            webSeed: nginx.url("bad/disk.img") + "," + nginx.url("good/disk.img"))
        var result = try await haul("add", torrent)
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await haul("run", timeout: 90)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(sameFile(downloads + "/disk.img", www + "/good/disk.img"))
        XCTAssertTrue(
            (result.stdout + result.stderr).contains(
                "web seed \(nginx.url("bad/disk.img")) sent pieces that failed their hash"),
            result.stdout + result.stderr)
    }
}
