import Foundation
import HaulTestSupport
import XCTest

/// Torrents as an attacker writes them: names that climb out of the folder or carry terminal
/// escapes, trackers that answer garbage or never answer, files that are not torrents. The data
/// comes from nginx as the torrent's web seed (BEP 19), so no peer is needed.
final class TorrentHostileTests: TorrentTestCase {
    var nginx: NginxServer!
    var www: String!
    var silent: Int32 = -1

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        if silent >= 0 { close(silent) }
        try await super.tearDown()
    }

    /// A port that takes connections and never says a word.
    func silentPort() -> Int {
        silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(silent, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(silent, 16)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(silent, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A single-file torrent of `data` named `name`, its pieces fetched from `webSeed`, announced
    /// to `trackers` (one tier each).
    func torrent(of data: [UInt8], name: String, webSeed: String, trackers: [String]) -> [UInt8] {
        let pieceLength = 16_384
        var hashes: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: pieceLength) {
            hashes += TestDigest.sha1(data[start..<min(start + pieceLength, data.count)])
        }
        let info = Bencode.dictionary([
            "length": .integer(Int64(data.count)), "name": .bytes(Array(name.utf8)),
            "piece length": .integer(Int64(pieceLength)), "pieces": .bytes(hashes),
        ])
        return Bencode.dictionary([
            "announce": .bytes(Array(trackers[0].utf8)),
            "announce-list": .list(trackers.map { .list([.bytes(Array($0.utf8))]) }),
            "info": info, "url-list": .bytes(Array(webSeed.utf8)),
        ]).encoded
    }

    func testANameThatClimbsOutAndCarriesEscapesLandsSafelyInsideTheFolder() async throws {
        try TestFiles.random(www + "/payload.bin", size: 300_000)
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: www + "/payload.bin")))
        try "this is not bencode".write(toFile: www + "/announce", atomically: true, encoding: .utf8)
        let hostile = "../../evil\u{1B}]0;owned\u{07}\u{1B}[31m.bin"
        let bytes = torrent(
            of: data, name: hostile, webSeed: nginx.url("payload.bin"),
            trackers: [nginx.url("announce"), "http://127.0.0.1:\(silentPort())/announce"])
        let file = dir.path + "/hostile.torrent"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let added = try await haul("add", file)
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try await haul("run", timeout: 90)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertFalse((run.stdout + run.stderr).contains("\u{1B}"), run.stdout)
        let listed = try await haul("ls")
        XCTAssertFalse(listed.stdout.contains("\u{1B}"), listed.stdout)
        // Nothing outside the download folder; inside it, one file with the seed's bytes.
        let outside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("evil") }
        XCTAssertEqual(outside, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/evil"))
        let rows = try await listJSON()
        let row = try XCTUnwrap(rows.first)
        let path = try XCTUnwrap(row["path"] as? String)
        XCTAssertTrue(path.hasPrefix(downloads + "/"), path)
        XCTAssertFalse(path.dropFirst(downloads.count + 1).contains("/"), path)
        XCTAssertFalse(path.contains("\u{1B}"), path)
        XCTAssertTrue(sameFile(path, www + "/payload.bin"))
    }

    /// As aria2's `--follow-torrent`: an http(s) URL that serves a torrent file becomes that torrent.
    func testAnHTTPAddressServingATorrentFileIsFollowed() async throws {
        try TestFiles.random(www + "/image.bin", size: 200_000)
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: www + "/image.bin")))
        let bytes = torrent(
            of: data, name: "image.bin", webSeed: nginx.url("image.bin"), trackers: [nginx.url("announce")])
        try Data(bytes).write(to: URL(fileURLWithPath: www + "/image.torrent"))
        let added = try await haul("add", nginx.url("image.torrent"))
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try await haul("run", timeout: 90)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(downloads + "/image.bin", www + "/image.bin"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloads + "/image.torrent"))
        let rows = try await listJSON()
        let row = try XCTUnwrap(rows.first)
        XCTAssertTrue((row["url"] as? String)?.hasPrefix("magnet:?xt=urn:btih:") == true, "\(row)")
        XCTAssertEqual(row["previousURLs"] as? [String], [nginx.url("image.torrent")])
    }

    func testFilesThatAreNotTorrentsAreRefusedInOneSentenceAndAddNothing() async throws {
        let valid = torrent(
            of: [UInt8](repeating: 1, count: 1000), name: "a.bin", webSeed: nginx.url("a"), trackers: [nginx.url("t")])
        let cases: [(String, [UInt8])] = [
            ("empty.torrent", []),
            ("cut.torrent", Array(valid.prefix(valid.count / 2))),
            ("garbage.torrent", Array("d8:announce4:spam4:infoi12ee".utf8)),
            ("deep.torrent", Array(String(repeating: "l", count: 100_000).utf8)),
        ]
        for (name, bytes) in cases {
            let file = dir.path + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let added = try await haul("add", file)
            XCTAssertNotEqual(added.status, 0, name)
            XCTAssertTrue(added.stderr.contains("not a torrent file"), "\(name): \(added.stderr)")
            XCTAssertEqual(added.stderr.split(separator: "\n").count, 1, added.stderr)
        }
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 0)
    }
}
