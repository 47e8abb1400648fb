import Foundation
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Where a torrent's `.torrent` and resume data are kept: the state file's own folder.
final class TorrentStoreTests: XCTestCase {
    let hash = String(repeating: "ab", count: 20)

    func testTheUsualStateKeepsTorrentsAndAnotherStateItsOwnFolder() {
        XCTAssertEqual(TorrentStore(statePath: "/s/state.json").folder, "/s/torrents")
        XCTAssertEqual(TorrentStore(statePath: "/s/other.json").folder, "/s/other.json.torrents")
        XCTAssertEqual(TorrentStore(statePath: "state.json").folder, "./torrents")
    }

    /// A state file named otherwise kept its torrents in `torrents/` before: their `.torrent`
    /// files are still found there, but not resume data, which may be another list's.
    func testAnotherStateStillReadsTheTorrentFilesItKeptInTheSharedFolder() throws {
        let dir = TestDirectory()
        let shared = TorrentStore(statePath: dir.path + "/state.json")
        try shared.keepMetainfo([1, 2, 3], infoHash: hash)
        XCTAssertTrue(shared.keepResumeData([4, 5], infoHash: hash))

        let other = TorrentStore(statePath: dir.path + "/other.json")
        XCTAssertEqual(other.metainfo(hash), [1, 2, 3])
        XCTAssertNil(other.resumeData(hash))
        try other.keepMetainfo([7], infoHash: hash)
        XCTAssertEqual(other.metainfo(hash), [7], "its own first")
        other.forget(hash)
        XCTAssertEqual(shared.metainfo(hash), [1, 2, 3], "the shared folder is never emptied by another list")
        XCTAssertEqual(shared.resumeData(hash), [4, 5])
    }
}
