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

    /// A torrent's own seed ratio and time outweigh the saved ones; a time of 0 seeds not at all.
    func testATorrentsOwnSeedGoalOutweighsTheSavedSettings() throws {
        var saved = TorrentSettings()
        saved.seedMinutes = 60
        let own = saved.seeding(toward: SeedGoal(ratio: 3))
        XCTAssertEqual([own.seedRatio, Double(own.seedMinutes ?? -1)], [3, 60])
        XCTAssertTrue(own.seeds)
        XCTAssertFalse(saved.seeding(toward: SeedGoal(minutes: 0)).seeds, "0 minutes: no seeding, as in aria2")
        XCTAssertTrue(
            saved.seeding(toward: SeedGoal(minutes: 0)).seedingIsDone(uploaded: 0, downloaded: 10, seconds: 0))
        XCTAssertEqual(saved.seeding(toward: nil), saved)
        XCTAssertEqual(SeedGoal(ratio: 1).merged(with: SeedGoal(minutes: 5)), SeedGoal(ratio: 1, minutes: 5))
        XCTAssertThrowsError(try SeedGoal.ratio(parsing: "-1"))
        XCTAssertThrowsError(try SeedGoal.minutes(parsing: "1.5"))

        var request = DownloadRequest(url: "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))", directory: "/d")
        try Aria2Options.apply([("seed-ratio", "0.5"), ("seed-time", "0")], to: &request) { $0 }
        XCTAssertEqual(request.seedGoal, SeedGoal(ratio: 0.5, minutes: 0))
        request.seedGoal = SeedGoal()
        XCTAssertNil(request.seedGoal, "an empty goal is none")
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
