import Crypto
import Foundation
import HaulTestSupport
import XCTest

/// Crash chaos: `haul run` (and the TUI) killed with SIGKILL at random moments, over and
/// over, then run to the end. Every file must be byte-identical, no `.part` left, the state
/// file readable, and no download lost or duplicated.
final class ChaosTests: CLITestCase {
    var nginx: NginxServer!
    var www: String!
    var expected: [String: String] = [:]
    let sizes = [1 << 10, 64 << 10, 1 << 20, 10 << 20, 50 << 20, 200 << 20]

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        // Rate-limited so a transfer is caught mid-way by most kills.
        nginx = try await NginxServer(root: www, slowRate: "1m", workDirectory: dir.subdirectory("nginx"))
        for size in sizes {
            let name = "file-\(size).bin"
            try TestFiles.random(www + "/" + name, size: size)
            expected[name] = try XCTUnwrap(sha256(www + "/" + name))
        }
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    func sha256(_ path: String) throws -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 22), !chunk.isEmpty { hasher.update(data: chunk) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    func addAll() async throws {
        for size in sizes {
            let result = try await haul("add", nginx.url("slow/file-\(size).bin"))
            XCTAssertEqual(result.status, 0, result.stderr)
        }
    }

    /// After the chaos: finish, then check everything. Returns the bytes verified.
    func finishAndVerify() async throws -> Int64 {
        let last = try await haul("run", timeout: 300)
        XCTAssertEqual(last.status, 0, last.stdout + last.stderr)
        let list = try await listJSON()
        XCTAssertEqual(list.count, sizes.count, "no download lost or duplicated")
        XCTAssertEqual(Set(list.compactMap { $0["id"] as? String }).count, sizes.count)
        XCTAssertEqual(Set(list.compactMap { $0["path"] as? String }).count, sizes.count)
        XCTAssertTrue(list.allSatisfy { $0["state"] as? String == "finished" }, "\(list)")
        let files = try FileManager.default.contentsOfDirectory(atPath: downloads).sorted()
        XCTAssertEqual(files, expected.keys.sorted(), "exactly the files, no .part, no duplicates")
        var verified: Int64 = 0
        for (name, hash) in expected {
            XCTAssertEqual(try sha256(downloads + "/" + name), hash, name)
            verified += fileSize(downloads + "/" + name) ?? 0
        }
        return verified
    }

    func testRunKilledAtRandomFiftyTimesLosesNothing() async throws {
        var rng = SeededGenerator.fromEnvironment("ChaosTests.run")
        try await addAll()
        let rounds = 50
        var killedMidTransfer = 0
        for round in 0..<rounds {
            let child = try spawnHaul(["run"], log: "/dev/null")
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...450, using: &rng)))
            if (try FileManager.default.contentsOfDirectory(atPath: downloads)).contains(where: {
                $0.hasSuffix(".part")
            }) {
                killedMidTransfer += 1
            }
            child.signal(SIGKILL)
            _ = await child.wait()
            let list = try await listJSON()
            XCTAssertEqual(list.count, sizes.count, "round \(round): the state file parses and lists every download")
        }
        let verified = try await finishAndVerify()
        XCTAssertGreaterThan(killedMidTransfer, rounds / 2, "most kills hit a running transfer")
        Figures.record(
            "Crash chaos, `haul run`",
            "\(rounds) `kill -9` at random moments (\(killedMidTransfer) mid-transfer), 6 files of 1 KiB–200 MiB",
            "all \(sizes.count) files byte-identical (\(verified >> 20) MiB checked), no `.part` left, state "
                + "readable every round, 0 lost or duplicated"
        )
    }

    func testTUIKilledAtRandomLosesNothing() async throws {
        var rng = SeededGenerator.fromEnvironment("ChaosTests.tui")
        try await addAll()
        let rounds = 50
        for round in 0..<rounds {
            let tui = try await TmuxSession(
                command: "'\(HaulBinary.path)'; sleep 600", width: 100, height: 20,
                environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tmux-\(round)")
            )
            try await tui.waitFor { $0.contains("metered:") }
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...700, using: &rng)))
            // The screen is up before the state is read: the lock names its owner once it is taken.
            var pid: Int32?
            for _ in 0..<100 where pid == nil {
                let lock = (try? String(contentsOfFile: statePath + ".lock", encoding: .utf8)) ?? ""
                pid = Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines))
                if pid == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            kill(try XCTUnwrap(pid, "round \(round)"), SIGKILL)
            await tui.kill()
            let list = try await listJSON()
            XCTAssertEqual(list.count, sizes.count, "round \(round)")
        }
        let verified = try await finishAndVerify()
        Figures.record(
            "Crash chaos, the TUI under tmux", "\(rounds) `kill -9` of the running TUI",
            "all \(sizes.count) files byte-identical (\(verified >> 20) MiB checked), no `.part` left, 0 lost or "
                + "duplicated"
        )
    }
}

/// Crash chaos during segmented downloads: `haul run` killed while eight connections write one
/// file, over and over. The file ends byte-identical, and what was fetched twice (counted from
/// the server's log) stays within a mebibyte per connection per kill.
final class SegmentedChaosTests: CLITestCase {
    func testRunKilledDuringASegmentedDownloadRefetchesAtMostAMebibytePerConnection() async throws {
        let www = dir.subdirectory("www")
        let nginx = try await NginxServer(root: www, slowRate: "2m", workDirectory: dir.subdirectory("nginx"))
        let size = 64 << 20
        try TestFiles.random(www + "/big.bin", size: size)
        let added = try await haul("add", nginx.url("slow/big.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        var rng = SeededGenerator.fromEnvironment("SegmentedChaosTests")
        let rounds = 8
        var segmentedKills = 0
        for round in 0..<rounds {
            let child = try spawnHaul(["run"], log: "/dev/null")
            try await Task.sleep(for: .milliseconds(Int.random(in: 400...900, using: &rng)))
            child.signal(SIGKILL)
            _ = await child.wait()
            let list = try await listJSON()
            XCTAssertEqual(list.count, 1, "round \(round): the state file parses")
            if (list.first?["segments"] as? [Any])?.isEmpty == false { segmentedKills += 1 }
        }
        let last = try await haul("run", timeout: 120)
        XCTAssertEqual(last.status, 0, last.stdout + last.stderr)
        XCTAssertTrue(sameFile(downloads + "/big.bin", www + "/big.bin"), "byte-identical")
        XCTAssertNil(fileSize(downloads + "/big.bin.part"))
        XCTAssertGreaterThan(segmentedKills, rounds / 2, "most kills hit the download in pieces")
        let served = nginx.accessLog().filter { $0.uri == "/slow/big.bin" }.reduce(Int64(0)) { $0 + $1.bytesSent }
        let twice = served - Int64(size)
        let connections = 8
        XCTAssertLessThanOrEqual(twice, Int64(rounds * connections) << 20, "at most 1 MiB per connection per kill")
        Figures.record(
            "Crash chaos, segmented",
            "\(rounds) `kill -9` of `haul run` fetching 64 MiB over 8 connections capped at 2 MB/s each",
            "byte-identical; fetched twice: \(mebibytes(twice)) in all (\(mebibytes(twice / Int64(rounds))) a "
                + "kill, at most 8 MiB allowed)"
        )
        await nginx.stop()
    }
}

private func mebibytes(_ bytes: Int64) -> String { String(format: "%.1f MiB", Double(max(0, bytes)) / 1_048_576) }
