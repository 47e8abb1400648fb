import Foundation
import HaulTestSupport
import XCTest

/// `haul limit`, `haul move` and `haul metered --budget` with the real binary, against nginx and
/// a running `haul run`.
final class BandwidthCommandTests: NginxCLITestCase {
    override var slowRate: String { "300k" }

    func testMovingADownloadWhileHaulRunWorksMakesItTheNextToStart() async throws {
        for name in ["a", "b", "c", "d"] { try TestFiles.random(www + "/\(name).bin", size: 300_000) }
        for name in ["a", "b", "c", "d"] { try await haul("add", "-x", "1", nginx.url("slow/\(name).bin")) }
        let ids = try await listJSON().map { $0["id"] as! String }
        let runner = try spawnHaul(["run", "-j", "1"], log: dir.path + "/run.log")
        try await waitUntil { (self.fileSize(self.downloads + "/a.bin.part") ?? 0) > 0 }
        let moved = try await haul("move", ids[3], "top")
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(moved.stdout, "\(ids[3])  1 of 4  d.bin\n")
        let order = try await listJSON().map { $0["url"] as! String }
        XCTAssertTrue(order.first?.hasSuffix("/d.bin") == true, "\(order)")
        // When a finishes, d starts next, before b and c.
        try await waitUntil(timeout: 20) { self.fileSize(self.downloads + "/a.bin") != nil }
        try await waitUntil(timeout: 10) {
            self.fileSize(self.downloads + "/d.bin.part") != nil || self.fileSize(self.downloads + "/d.bin") != nil
        }
        XCTAssertNil(fileSize(downloads + "/b.bin"), "b waits for d")
        XCTAssertNil(fileSize(downloads + "/b.bin.part"), "b waits for d")
        runner.signal(SIGTERM)
        _ = await runner.wait(timeout: 10)

        let bad = try await haul("move", ids[0], "sideways")
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("'sideways' is not a place; use top, bottom, up or down"), bad.stderr)
    }

    func testLimitsAreSavedShownAndReachARunningHaul() async throws {
        let none = try await haul("limit")
        XCTAssertEqual(none.stdout, "speed limit: none\n")
        let set = try await haul("limit", "1.5M")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "speed limit: 1.5 MiB/s\n")
        let windowed = try await haul("limit", "2M", "--during", "00:00-23:59")
        XCTAssertEqual(windowed.stdout.hasPrefix("speed limit: 2.0 MiB/s during 00:00-23:59"), true, windowed.stdout)
        let tooLow = try await haul("limit", "1K")
        XCTAssertNotEqual(tooLow.status, 0)
        XCTAssertTrue(tooLow.stderr.contains("a speed limit must be at least 16.0 KiB/s, or 0 to hold downloads"))
        let badWindow = try await haul("limit", "2M", "--during", "25:00-01:00")
        XCTAssertTrue(badWindow.stderr.contains("--during takes a daily window such as 08:00-23:00"), badWindow.stderr)
        let saved = try await haul("limit")
        XCTAssertEqual(saved.stdout, "speed limit: 2.0 MiB/s during 00:00-23:59\n", "saved")

        try TestFiles.random(www + "/x.bin", size: 20_000_000)
        let add = try await haul("add", "--limit", "512K", nginx.url("x.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let first = try await listJSON().first
        let id = try XCTUnwrap(first?["id"] as? String)
        XCTAssertEqual(first?["speedLimit"] as? Int, 512 * 1024)
        let runner = try spawnHaul(["run"], log: dir.path + "/run.log")
        try await waitUntil { (self.fileSize(self.downloads + "/x.bin.part") ?? 0) > 0 }
        // Over the socket to the running haul: its own limit up, then lifted.
        let own = try await haul("limit", "4M", id)
        XCTAssertEqual(own.status, 0, own.stderr)
        XCTAssertTrue(own.stdout.contains("\(id)  4.0 MiB/s  x.bin"), own.stdout)
        let listed = try await haul("limit")
        XCTAssertTrue(listed.stdout.contains("\(id)  4.0 MiB/s"), listed.stdout)
        let lifted = try await haul("limit", "none")
        XCTAssertTrue(lifted.stdout.hasPrefix("speed limit: none"), lifted.stdout)
        try await haul("limit", "none", id)
        let status = await runner.wait(timeout: 30)
        XCTAssertEqual(status, 0, "without limits the rest comes at once")
        XCTAssertTrue(sameFile(downloads + "/x.bin", www + "/x.bin"))
        let log = try String(contentsOfFile: dir.path + "/run.log", encoding: .utf8)
        XCTAssertTrue(log.contains("speed limit: none"), log)
    }

    func testAMeteredBudgetIsShownAndKept() async throws {
        let set = try await haul("metered", "on", "--budget", "8M/day")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("metered data budget: 8.0 MiB/day, used 0 B of 8.0 MiB today"), set.stdout)
        let json = try await haul("metered", "--json")
        let status = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(status["budget"] as? Int, 8 << 20)
        XCTAssertEqual(status["budgetPeriod"] as? String, "day")
        XCTAssertEqual(status["budgetUsed"] as? Int, 0)
        XCTAssertEqual(status["metered"] as? Bool, true)

        try TestFiles.random(www + "/m.bin", size: 12 << 20)
        try await haul("add", "--allow-metered", nginx.url("m.bin"))
        let runner = try spawnHaul(["run"], log: dir.path + "/run.log")
        try await waitUntil(timeout: 20) {
            ((try? String(contentsOfFile: self.dir.path + "/run.log", encoding: .utf8)) ?? "")
                .contains("metered data budget used: 8.0 MiB of 8.0 MiB today (resumes by itself")
        }
        let used = try await haul("metered")
        XCTAssertTrue(used.stdout.contains("used 8.0 MiB of 8.0 MiB today"), used.stdout)
        try await haul("metered", "--budget", "none")
        let exit = await runner.wait(timeout: 20)
        XCTAssertEqual(exit, 0)
        XCTAssertTrue(sameFile(downloads + "/m.bin", www + "/m.bin"))
        let bad = try await haul("metered", "--budget", "8M/week")
        XCTAssertTrue(bad.stderr.contains("--budget takes a size per day or month"), bad.stderr)
    }
}
