import XCTest

@testable import HaulCore

/// Which responses are torrent files to follow, as aria2's `--follow-torrent` decides.
final class FollowTorrentTests: XCTestCase {
    func follows(_ type: String?, _ url: String) -> Bool { MagnetLink.servesTorrent(contentType: type, url: url) }

    func testTheContentTypeOrAPathEndingInTorrentSaysSo() {
        XCTAssertTrue(follows("application/x-bittorrent", "https://h/download?id=7"))
        XCTAssertTrue(follows("Application/X-BitTorrent; charset=binary", "https://h/x"))
        XCTAssertTrue(follows(nil, "https://h/debian.iso.torrent"))
        XCTAssertTrue(follows("application/octet-stream", "https://h/Debian.ISO.TORRENT?mirror=2"))
    }

    func testAnythingElseIsAFile() {
        XCTAssertFalse(follows("text/html", "https://h/debian.iso.torrent"), "a page about the torrent")
        XCTAssertFalse(follows(nil, "https://h/get?file=debian.iso.torrent"), "only in the query")
        XCTAssertFalse(follows(nil, "https://h/f1.bin"))
        XCTAssertFalse(follows("application/octet-stream", "https://h/a.torrent/readme"))
    }
}
