import Foundation
import HaulTestSupport
import XCTest

/// A torrent's own seed ratio and time, over the saved ones, as aria2 takes them per download.
final class TorrentSeedGoalTests: TorrentTestCase {
    func testATorrentsOwnSeedRatioOutweighsTheSavedOneAndItsOwnSeedTimeOfZeroEndsItsSeedingLive() async throws {
        let (torrent, hash) = try await seededFile("goal.bin", size: 500_000)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        // The saved ratio (set up) is 0: no seeding; this torrent's own is 2.
        let added = try await haul("add", "--seed-ratio", "2", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let row = try await firstRow(within: 60) { $0["seeding"] as? Bool == true }
        XCTAssertEqual(row["state"] as? String, "finished")
        let id = try XCTUnwrap(row["id"] as? String)

        let stopped = try await haul("torrents", "--seed-time", "0", id)
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        XCTAssertEqual(stopped.stdout, "no seeding for 1 torrent(s)\n")
        try await waitUntil(timeout: 10) { (try? self.syncList().first?["seeding"] as? Bool) == false }
        let kept = try await listJSON().first
        XCTAssertEqual(kept?["state"] as? String, "finished")
        XCTAssertTrue(sameFile(downloads + "/goal.bin", seedData + "/goal.bin"))

        let refused = try await haul("torrents", "--dht", "on", id)
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("only --seed-ratio and --seed-time are a torrent's own"), refused.stderr)
    }
}
