import Foundation
import HaulTestSupport
import XCTest

/// A torrent's connections are its peers: `-x` and `haul connections` bound how many seeders of
/// a real swarm it talks to, while it runs.
final class TorrentPeerLimitTests: TorrentTestCase {
    func testATorrentsPeerLimitHoldsAgainstThreeSeedersAndLiftsWhileItRuns() async throws {
        let (torrent, hash) = try await seededFile("peers.bin", size: 3_000_000)
        try await swarm.startTracker(allowing: [hash])
        // Slow seeders, so the download lasts while the limit is watched.
        for _ in 0..<3 { try await swarm.seedWithAria2(torrent, data: seedData, uploadLimit: "100K") }
        try await swarm.waitForSeeders(3, of: hash)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        let folder = dir.subdirectory("got")
        let added = try await haul("add", "-x", "2", "-d", folder, torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        var row: [String: Any] = [:]
        try await waitUntil(timeout: 30) {
            row = (try? self.syncList().first) ?? [:]
            return row["peers"] as? Int ?? 0 >= 2
        }
        let id = try XCTUnwrap(row["id"] as? String)
        var most = 0
        for _ in 0..<8 {
            try await Task.sleep(for: .milliseconds(500))
            most = max(most, try syncList().first?["peers"] as? Int ?? 0)
        }
        XCTAssertEqual(most, 2, "three seeders, at most two peers")
        XCTAssertNotEqual(try syncList().first?["state"] as? String, "finished", "watched while it ran")

        let lifted = try await haul("connections", "0", id)
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertEqual(lifted.stdout, "no peer limit for 1 torrent(s)\n")
        try await waitUntil(timeout: 30) {
            let now = (try? self.syncList().first) ?? [:]
            return now["peers"] as? Int == 3 || now["state"] as? String == "finished"
        }
        XCTAssertNotEqual(try syncList().first?["state"] as? String, "finished", "the third seeder came while it ran")
        try await waitUntil(timeout: 60) { self.sameFile(folder + "/peers.bin", self.seedData + "/peers.bin") }
    }
}
