import Foundation
import HaulLoopback
import HaulTestSupport
import Synchronization
import XCTest

/// Crash chaos: `haul run`, the TUI and a download in pieces killed with SIGKILL over and over,
/// each time once a random number of bytes more is on disk (so every kill lands in a transfer
/// however fast the machine is, and no round waits longer than it must), then run to the end.
/// Every file must be byte-identical, no `.part` left, the state file readable, and no download
/// lost or duplicated.
///
/// `HAUL_CHAOS_ROUNDS` sets the rounds (`make figures` runs 50 of each, with larger files).
final class ChaosTests: CLITestCase {
    /// The files, made and hashed once for the whole class.
    static let files = ChaosFiles(
        sizes: long
            ? [1 << 10, 64 << 10, 1 << 20, 10 << 20, 50 << 20, 200 << 20]
            : [1 << 10, 64 << 10, 1 << 20, 8 << 20, 24 << 20])
    static let long = ProcessInfo.processInfo.environment["HAUL_CHAOS_ROUNDS"] != nil
    static var rounds: Int { Int(ProcessInfo.processInfo.environment["HAUL_CHAOS_ROUNDS"] ?? "") ?? 12 }

    var nginx: NginxServer!

    override func setUp() async throws {
        try await super.setUp()
        // Capped per connection so a transfer is caught mid-way by every kill.
        nginx = try await NginxServer(
            root: Self.files.root, slowRate: "4m", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    func addAll() async throws {
        let result = try await haul(["add"] + Self.files.names.map { nginx.url("slow/" + $0) })
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// After the chaos: finish, then check everything. Returns the bytes verified.
    func finishAndVerify() async throws -> Int64 {
        let last = try await haul("run", timeout: 300)
        XCTAssertEqual(last.status, 0, last.stdout + last.stderr)
        let count = Self.files.names.count
        let list = try await listJSON()
        XCTAssertEqual(list.count, count, "no download lost or duplicated")
        XCTAssertEqual(Set(list.compactMap { $0["id"] as? String }).count, count)
        XCTAssertEqual(Set(list.compactMap { $0["path"] as? String }).count, count)
        XCTAssertTrue(list.allSatisfy { $0["state"] as? String == "finished" }, "\(list)")
        let files = try FileManager.default.contentsOfDirectory(atPath: downloads).sorted()
        XCTAssertEqual(files, Self.files.names.sorted(), "exactly the files, no .part, no duplicates")
        var verified: Int64 = 0
        for (name, hash) in Self.files.hashes {
            XCTAssertEqual(ChaosFiles.sha256(downloads + "/" + name), hash, name)
            verified += fileSize(downloads + "/" + name) ?? 0
        }
        return verified
    }

    func testRunKilledAtRandomLosesNothing() async throws {
        var rng = SeededGenerator.fromEnvironment("ChaosTests.run")
        try await addAll()
        let rounds = Self.rounds
        var killedMidTransfer = 0
        for (round, bytes) in ChaosFiles.killPoints(rounds, total: Self.files.total, using: &rng).enumerated() {
            let child = try spawnHaul(["run"], log: "/dev/null")
            await ChaosFiles.waitForBytes(bytes, in: downloads, while: child)
            if (try FileManager.default.contentsOfDirectory(atPath: downloads)).contains(where: {
                $0.hasSuffix(".part")
            }) {
                killedMidTransfer += 1
            }
            child.signal(SIGKILL)
            _ = await child.wait()
            let list = try await listJSON()
            XCTAssertEqual(list.count, Self.files.names.count, "round \(round): the state file parses and lists all")
        }
        let verified = try await finishAndVerify()
        XCTAssertGreaterThan(killedMidTransfer, rounds / 2, "most kills hit a running transfer")
        Figures.record(
            "Crash chaos, `haul run`",
            "\(rounds) `kill -9` at random byte counts (\(killedMidTransfer) mid-transfer), "
                + "\(Self.files.names.count) files of \(Self.files.sizeRange)",
            "all files byte-identical (\(verified >> 20) MiB checked), no `.part` left, state readable every "
                + "round, 0 lost or duplicated"
        )
    }

    func testTUIKilledAtRandomLosesNothing() async throws {
        var rng = SeededGenerator.fromEnvironment("ChaosTests.tui")
        try await addAll()
        let rounds = max(4, Self.rounds * 2 / 3)
        for (round, bytes) in ChaosFiles.killPoints(rounds, total: Self.files.total, using: &rng).enumerated() {
            let tui = try await TmuxSession(
                command: "'\(HaulBinary.path)'; sleep 600", width: 100, height: 20,
                environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tmux-\(round)")
            )
            try await tui.waitFor { $0.contains("metered:") }
            // The screen is up before the state is read: the lock names its owner once it is taken.
            var pid: Int32?
            for _ in 0..<100 where pid == nil {
                let lock = (try? String(contentsOfFile: statePath + ".lock", encoding: .utf8)) ?? ""
                pid = Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines))
                if pid == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            let owner = try XCTUnwrap(pid, "round \(round)")
            await ChaosFiles.waitForBytes(bytes, in: downloads) { kill(owner, 0) == 0 }
            kill(owner, SIGKILL)
            await tui.kill()
            let list = try await listJSON()
            XCTAssertEqual(list.count, Self.files.names.count, "round \(round)")
        }
        let verified = try await finishAndVerify()
        Figures.record(
            "Crash chaos, the TUI under tmux", "\(rounds) `kill -9` of the running TUI at random byte counts",
            "all files byte-identical (\(verified >> 20) MiB checked), no `.part` left, 0 lost or duplicated"
        )
    }
}

/// Crash chaos during segmented downloads: `haul run` killed while eight connections write one
/// file, over and over. The file ends byte-identical, and what was fetched twice (counted from
/// the server's log) stays within a mebibyte per connection per kill.
final class SegmentedChaosTests: CLITestCase {
    func testRunKilledDuringASegmentedDownloadRefetchesAtMostAMebibytePerConnection() async throws {
        let long = ChaosTests.long
        let www = dir.subdirectory("www")
        let nginx = try await NginxServer(
            root: www, slowRate: long ? "2m" : "4m", workDirectory: dir.subdirectory("nginx"))
        let size = (long ? 64 : 48) << 20
        try TestFiles.random(www + "/big.bin", size: size)
        let added = try await haul("add", nginx.url("slow/big.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        var rng = SeededGenerator.fromEnvironment("SegmentedChaosTests")
        let rounds = long ? 8 : 5
        var segmentedKills = 0
        // Past the first few mebibytes, where the download is in pieces.
        let points = ChaosFiles.killPoints(rounds, total: Int64(size) * 3 / 4, using: &rng).map { $0 + 4 << 20 }
        for (round, bytes) in points.enumerated() {
            let child = try spawnHaul(["run"], log: "/dev/null")
            await ChaosFiles.waitForBytes(bytes, in: downloads, while: child)
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
        // nginx counts what it handed the kernel: up to a socket buffer's worth per connection was
        // still on its way when haul was killed and never reached it (64 KiB each is allowed).
        let inFlight = Int64(rounds * connections) * (64 << 10)
        XCTAssertLessThanOrEqual(
            twice, Int64(rounds * connections) << 20 + inFlight, "at most 1 MiB per connection per kill")
        Figures.record(
            "Crash chaos, segmented",
            "\(rounds) `kill -9` of `haul run` fetching \(size >> 20) MiB over 8 connections capped at "
                + "\(long ? 2 : 4) MB/s each",
            "byte-identical; fetched twice: \(mebibytes(twice)) in all (\(mebibytes(twice / Int64(rounds))) a "
                + "kill, at most 8 MiB allowed)"
        )
        await nginx.stop()
    }
}

extension ChaosTests {
    /// A download in pieces whose server changes the file starts over, emptying its `.part`;
    /// killed right then, and run again after the server went back to the first version, it must
    /// end as one version whole, never the old map's pieces over an emptied `.part`.
    func testAKillRightAfterAStartOverNeverResumesTheOldMap() async throws {
        let size = 24 << 20
        let first = TestFiles.randomBytes(size)
        let second = TestFiles.randomBytes(size)
        // The version served, and whether it is sent slowly (for the run that is killed).
        let serving = Mutex((version: 1, slow: true))
        let server = try FaultServer { request, _ in
            let (current, slow) = serving.withLock { $0 }
            return FaultServer.throttled(
                current == 1 ? first : second, for: request, etag: current == 1 ? "\"v1\"" : "\"v2\"",
                pause: slow ? 0.1 : 0)
        }
        defer { server.stop() }
        let added = try await haul("add", "-x", "8", server.url("big.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        let child = try spawnHaul(["run"], log: dir.path + "/run.log")
        // Well into the download in pieces, with its map saved.
        await ChaosFiles.waitForBytes(8 << 20, in: downloads, while: child)
        try await Task.sleep(for: .seconds(1.5))
        serving.withLock { $0.version = 2 }
        // The next piece's answer names another version: the `.part` is emptied.
        let deadline = Date().addingTimeInterval(20)
        while child.isRunning, Date() < deadline, ChaosFiles.onDisk(downloads) > 4 << 20 {
            try await Task.sleep(for: .milliseconds(2))
        }
        child.signal(SIGKILL)
        _ = await child.wait()
        serving.withLock { $0 = (version: 1, slow: false) }

        let again = try await haul("run", timeout: 120)
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        let got = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: downloads + "/big.bin")))
        XCTAssertEqual(got.count, size)
        XCTAssertTrue(got == first || got == second, "one version, whole")
    }
}

extension ChaosTests {
    /// A piece map that claims every byte of a `.part` that holds none (its blocks lost, or the
    /// file cut and grown again since): the run starts over rather than naming zeros finished.
    func testAMapClaimingBytesThePartDoesNotHoldStartsOverRatherThanNamingZeros() async throws {
        let size = 8 << 20
        let bytes = TestFiles.randomBytes(size)
        let server = try FaultServer { request, _ in
            FaultServer.throttled(bytes, for: request, etag: "\"v1\"", pause: 0)
        }
        defer { server.stop() }
        let added = try await haul("add", "--paused", "-x", "4", server.url("big.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        // The state as a run in pieces leaves it once every piece is synced, with a `.part` of
        // the right size that holds nothing (a hole).
        let saved = try Data(contentsOf: URL(fileURLWithPath: statePath))
        var document = try XCTUnwrap(JSONSerialization.jsonObject(with: saved) as? [String: Any])
        var download = try XCTUnwrap((document["downloads"] as? [[String: Any]])?.first)
        let half = Int64(size / 2)
        download["state"] = "waiting"
        download["fileName"] = "big.bin"
        download["totalBytes"] = size
        download["receivedBytes"] = size
        download["etag"] = "\"v1\""
        download["resumable"] = true
        download["segments"] = [
            ["start": 0, "end": half, "received": half], ["start": half, "end": Int64(size), "received": half],
        ]
        document["downloads"] = [download]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: statePath))
        try? FileManager.default.removeItem(atPath: statePath + ".journal")
        XCTAssertTrue(FileManager.default.createFile(atPath: downloads + "/big.bin.part", contents: nil))
        let part = try FileHandle(forWritingTo: URL(fileURLWithPath: downloads + "/big.bin.part"))
        try part.truncate(atOffset: UInt64(size))
        try part.close()

        let run = try await haul("run", timeout: 120)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("started over"), run.stdout)
        XCTAssertEqual(FileManager.default.contents(atPath: downloads + "/big.bin"), Data(bytes))
    }
}

extension ChaosTests {
    /// Killed as a new download's first bytes arrive, before any state save: the resume must
    /// ask with the validators of the bytes on disk, so a file changed on the server since comes
    /// back whole, never the old version's start spliced to the new one's end.
    func testAKillBeforeTheFirstSaveStillResumesOnlyTheSameVersion() async throws {
        let size = 4 << 20
        let first = TestFiles.randomBytes(size)
        let second = TestFiles.randomBytes(size)
        let changed = Mutex(false)
        let server = try FaultServer { request, _ in
            // The first version slowly, then the second at once, honouring `If-Range`.
            changed.withLock { $0 }
                ? FaultServer.serve(second, for: request, etag: "\"v2\"")
                : FaultServer.throttled(first, for: request, etag: "\"v1\"", pause: 0.2)
        }
        defer { server.stop() }
        let child = try spawnHaul(["-x", "1", "-d", downloads, server.url("big.bin")], log: dir.path + "/get.log")
        await ChaosFiles.waitForBytes(1, in: downloads, while: child)
        child.signal(SIGKILL)
        _ = await child.wait()
        let part = fileSize(downloads + "/big.bin.part") ?? 0
        XCTAssertGreaterThan(part, 0, "killed after the first bytes were written")
        changed.withLock { $0 = true }

        let again = try await haul(["-x", "1", "-d", downloads, server.url("big.bin")], timeout: 60)
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        let got = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: downloads + "/big.bin")))
        XCTAssertEqual(got.count, size)
        XCTAssertTrue(got == second, "the new version whole, not \(part) bytes of the old one before it")
        let resumed = server.requests.last?.headers["range"] != nil
        XCTAssertTrue(!resumed || server.requests.last?.headers["if-range"] == "\"v1\"", "\(server.requests)")
    }
}

extension ChaosTests {
    /// A server that ignores `If-Range` answers a resume with a range of a changed file (another
    /// ETag, or without validators another size): the download starts over and ends as the new
    /// version whole, never the old one's start before the new one's end.
    func testAResumeAnsweredWithARangeOfAChangedFileStartsOver() async throws {
        let size = 4 << 20
        let first = TestFiles.randomBytes(size)
        // The same size under another ETag, and one more byte with no validators at all.
        let versions: [(bytes: [UInt8], etag: String?)] = [
            (TestFiles.randomBytes(size), "\"v2\""),
            (TestFiles.randomBytes(size + 1), nil),
        ]
        for (round, next) in versions.enumerated() {
            let changed = Mutex(false)
            let server = try FaultServer { request, _ in
                // Ranges served whatever `If-Range` says, as some servers and caches do.
                changed.withLock { $0 }
                    ? FaultServer.throttled(next.bytes, for: request, etag: next.etag, pause: 0)
                    : FaultServer.throttled(first, for: request, etag: round == 0 ? "\"v1\"" : nil, pause: 0.2)
            }
            defer { server.stop() }
            let name = "file\(round).bin"
            let child = try spawnHaul(["-x", "1", "-d", downloads, server.url(name)], log: dir.path + "/get.log")
            let part = downloads + "/\(name).part"
            let deadline = Date().addingTimeInterval(20)
            while child.isRunning, Date() < deadline, (fileSize(part) ?? 0) == 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            child.signal(SIGKILL)
            _ = await child.wait()
            XCTAssertGreaterThan(fileSize(part) ?? 0, 0)
            changed.withLock { $0 = true }

            let again = try await haul(["-x", "1", "-d", downloads, server.url(name)], timeout: 60)
            XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
            XCTAssertTrue(
                server.requests.dropFirst().contains { $0.headers["range"] != nil }, "resumed by range first")
            let got = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: downloads + "/" + name)))
            XCTAssertTrue(got == next.bytes, "\(name): the new version whole (\(got.count) bytes)")
            XCTAssertTrue(again.stdout.contains("started over"), again.stdout)
        }
    }
}

extension ChaosTests {
    /// A `.part` deleted while its download runs (by hand, by a cleaner): the bytes written into
    /// it are gone with it, so the file is fetched again and named whole, not failed for good.
    func testAPartDeletedUnderARunningDownloadIsFetchedAgain() async throws {
        let size = 2 << 20
        let bytes = TestFiles.randomBytes(size)
        let first = Mutex(true)
        let server = try FaultServer { request, _ in
            // The first answer slowly, the next at once.
            let slow = first.withLock { was in
                defer { was = false }
                return was
            }
            return FaultServer.throttled(bytes, for: request, etag: "\"v1\"", pause: slow ? 0.1 : 0)
        }
        defer { server.stop() }
        let child = try spawnHaul(["-x", "1", "-d", downloads, server.url("gone.bin")], log: dir.path + "/get.log")
        let part = downloads + "/gone.bin.part"
        let deadline = Date().addingTimeInterval(20)
        while child.isRunning, Date() < deadline, (fileSize(part) ?? 0) < 256 << 10 {
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(unlink(part), 0)
        let status = await child.wait(timeout: 60)
        let log = (try? String(contentsOfFile: dir.path + "/get.log", encoding: .utf8)) ?? ""
        XCTAssertEqual(status, 0, log)
        XCTAssertTrue(log.contains("started over"), log)
        XCTAssertEqual(FileManager.default.contents(atPath: downloads + "/gone.bin"), Data(bytes))
    }
}

/// The files the chaos tests download, made once: their folder, names and SHA-256s.
final class ChaosFiles: Sendable {
    let root: String
    let names: [String]
    let hashes: [String: String]
    let total: Int64
    let sizeRange: String

    init(sizes: [Int]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("haul-chaos-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o755)
        root = dir
        var hashes: [String: String] = [:]
        for size in sizes {
            let name = "file-\(size).bin"
            try? TestFiles.random(dir + "/" + name, size: size)
            hashes[name] = Self.sha256(dir + "/" + name)
        }
        names = sizes.map { "file-\($0).bin" }
        self.hashes = hashes
        total = Int64(sizes.reduce(0, +))
        sizeRange = "\(sizes.min().map(Self.size) ?? "")–\(sizes.max().map(Self.size) ?? "")"
    }

    private static func size(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }

    static func sha256(_ path: String) -> String? {
        TestDigest.sha256Hex(ofFile: path)
    }

    /// `count` byte counts in rising order, each in its own stretch of `total`: each round gets
    /// further than the last, and the kill falls somewhere random within its stretch.
    static func killPoints(_ count: Int, total: Int64, using rng: inout some RandomNumberGenerator) -> [Int64] {
        let stretch = max(1, total / Int64(count + 1))
        return (0..<count).map { Int64($0) * stretch + Int64.random(in: 0..<stretch, using: &rng) }
    }

    /// Waits until `bytes` are on disk in `folder` (its files' allocated blocks), or the process
    /// has ended, or 20 s passed.
    static func waitForBytes(_ bytes: Int64, in folder: String, while alive: () -> Bool) async {
        let deadline = Date().addingTimeInterval(20)
        while alive(), Date() < deadline, onDisk(folder) < bytes {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    static func waitForBytes(_ bytes: Int64, in folder: String, while child: ChildProcess) async {
        await waitForBytes(bytes, in: folder) { child.isRunning }
    }

    /// The bytes the files in `folder` hold on disk (holes of a file in pieces not counted).
    static func onDisk(_ folder: String) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var total: Int64 = 0
        for name in names {
            var info = stat()
            if stat(folder + "/" + name, &info) == 0 { total += Int64(info.st_blocks) * 512 }
        }
        return total
    }
}

private func mebibytes(_ bytes: Int64) -> String { String(format: "%.1f MiB", Double(max(0, bytes)) / 1_048_576) }
