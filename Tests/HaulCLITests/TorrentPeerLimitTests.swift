import Foundation
import HaulTestSupport
import XCTest

/// A torrent's connections are its peers: `-x` and `haul connections` bound how many seeders of
/// a real swarm it talks to, while it runs.
final class TorrentPeerLimitTests: TorrentTestCase {
    func testATorrentsPeerLimitHoldsAgainstFourSeedersAndLowersWhileItRuns() async throws {
        let (torrent, hash) = try await seededFile("peers.bin", size: 6_000_000)
        try await swarm.startTracker(allowing: [hash])
        // Slow seeders, so the download lasts while the limit is watched.
        for _ in 0..<4 { try await swarm.seedWithAria2(torrent, data: seedData, uploadLimit: "100K") }
        try await swarm.waitForSeeders(4, of: hash)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        let added = try await haul("add", "-x", "3", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let row = try await firstRow(within: 30) { $0["peers"] as? Int ?? 0 >= 3 }
        let id = try XCTUnwrap(row["id"] as? String)
        var most = 0
        for _ in 0..<8 {
            try await Task.sleep(for: .milliseconds(500))
            most = max(most, try syncList().first?["peers"] as? Int ?? 0)
        }
        XCTAssertEqual(most, 3, "four seeders, at most three peers")

        // Lowered while it runs: libtorrent lets the extra peer go.
        let lowered = try await haul("connections", "2", id)
        XCTAssertEqual(lowered.status, 0, lowered.stderr)
        XCTAssertEqual(lowered.stdout, "at most 2 peers for 1 torrent(s)\n")
        try await waitUntil(timeout: 10) { (try? self.syncList().first?["peers"] as? Int) == 2 }
        most = 0
        for _ in 0..<4 {
            try await Task.sleep(for: .milliseconds(500))
            most = max(most, try syncList().first?["peers"] as? Int ?? 0)
        }
        XCTAssertEqual(most, 2)
        XCTAssertNotEqual(try syncList().first?["state"] as? String, "finished", "watched while it ran")
    }
}
