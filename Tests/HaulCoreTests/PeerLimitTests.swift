import XCTest

@testable import HaulCore

/// A torrent's connections are its peers: libtorrent's floor of two, aria2's `bt-max-peers`.
final class PeerLimitTests: XCTestCase {
    func testACountBecomesALimitLibtorrentTakes() {
        XCTAssertNil(PeerLimit.from(0), "0 is no limit, as aria2's bt-max-peers=0")
        XCTAssertNil(PeerLimit.from(-3))
        XCTAssertEqual(PeerLimit.from(1), 2, "libtorrent keeps a torrent's own limit at 2 or more")
        XCTAssertEqual(PeerLimit.from(55), 55)
        XCTAssertEqual(PeerLimit.from(1_000_000), PeerLimit.most)
        XCTAssertEqual(PeerLimit.describe(5), "at most 5 peers")
        XCTAssertEqual(PeerLimit.describe(nil), "no peer limit")
    }

    /// aria2 counts a torrent's peers with `bt-max-peers` only; `split` is an HTTP download's.
    func testAria2sOptionsGiveATorrentItsPeersAndAFileItsConnections() throws {
        let magnet = "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))"
        var torrent = DownloadRequest(url: magnet, directory: "/d")
        try Aria2Options.apply([("split", "4"), ("bt-max-peers", "30")], to: &torrent) { $0 }
        XCTAssertEqual(torrent.connections, 30)
        try Aria2Options.apply([("bt-max-peers", "0")], to: &torrent) { $0 }
        XCTAssertNil(torrent.connections, "no limit")
        var file = DownloadRequest(url: "http://h/f", directory: "/d")
        try Aria2Options.apply([("split", "4"), ("bt-max-peers", "30")], to: &file) { $0 }
        XCTAssertEqual(file.connections, 4)
        XCTAssertThrowsError(try Aria2Options.apply([("bt-max-peers", "many")], to: &torrent) { $0 })
    }
}
