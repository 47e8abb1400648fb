import Foundation
import HaulTestSupport
import XCTest

/// The metered-network switch in the real TUI and on the command line.
final class MeteredTUITests: CLITestCase {
    var nginx: NginxServer!
    var www: String!
    var session: TmuxSession?

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "300k", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await session?.kill()
        await nginx?.stop()
        try await super.tearDown()
    }

    func download(_ name: String) throws -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: statePath),
            let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["downloads"] as? [[String: Any]]
        else { return nil }
        return list.first { ($0["url"] as? String)?.hasSuffix(name) ?? false }
    }

    func line(_ screen: String, _ name: String) -> String {
        String(screen.split(separator: "\n").first { $0.contains(name) } ?? "")
    }

    func testMKeyPausesWhatIsNotAllowedWithinASecondAndResumesIt() async throws {
        try TestFiles.random(www + "/blocked.bin", size: 2_400_000)
        try TestFiles.random(www + "/allowed.bin", size: 2_400_000)
        _ = try await haul("add", "-x", "1", nginx.url("slow/blocked.bin"))
        _ = try await haul("add", "-x", "1", "--allow-metered", nginx.url("slow/allowed.bin"))
        let script = "'\(HaulBinary.path)'; echo \"EXIT=$?\"; sleep 600"
        let tui = try await TmuxSession(
            command: script, width: 110, height: 20,
            environment: environment(["TERM": "xterm-256color", "HAUL_METERED_PROBE": "echo no"]),
            workDirectory: dir.subdirectory("tmux")
        )
        session = tui
        try await tui.waitFor {
            TUITests.percent(in: $0, row: "blocked.bin") ?? 0 > 0
                && TUITests.percent(in: $0, row: "allowed.bin") ?? 0 > 0
        }

        try await tui.send("m")
        let start = Date()
        let metered = try await tui.waitFor(timeout: 1) {
            $0.contains("metered: on") && self.line($0, "blocked.bin").contains("metered")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
        XCTAssertTrue(line(metered, "blocked.bin").contains("metered net"), metered)
        try await waitUntil(timeout: 2) { (try? self.download("blocked.bin"))??["pauseCause"] as? String == "metered" }
        let allowedBefore = TUITests.percent(in: metered, row: "allowed.bin") ?? 0
        let later = try await tui.waitFor { (TUITests.percent(in: $0, row: "allowed.bin") ?? 0) > allowedBefore }
        XCTAssertTrue(line(later, "allowed.bin").contains("downloading"), later)

        // m again: auto, and the probe says unmetered, so the policy's pause ends by itself.
        try await tui.send("m")
        try await tui.waitFor {
            $0.contains("metered: auto (unmetered)") && self.line($0, "blocked.bin").contains("downloading")
        }
        try await tui.send("m")
        try await tui.waitFor { $0.contains("metered: off") }
        try await tui.waitFor(timeout: 30) {
            self.line($0, "blocked.bin").contains("done") && self.line($0, "allowed.bin").contains("done")
        }
        XCTAssertTrue(sameFile(downloads + "/blocked.bin", www + "/blocked.bin"))
        XCTAssertTrue(sameFile(downloads + "/allowed.bin", www + "/allowed.bin"))
        try await tui.send("q")
        try await tui.waitFor { $0.contains("EXIT=0") }
    }

    func testResumingANotAllowedDownloadWhileMeteredAsks() async throws {
        try TestFiles.random(www + "/a.bin", size: 2_000_000)
        _ = try await haul("add", "-x", "1", "--paused", nginx.url("slow/a.bin"))
        _ = try await haul("metered", "on")
        let tui = try await TmuxSession(
            command: "'\(HaulBinary.path)'; echo EXIT=$?; sleep 600", width: 110, height: 20,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tmux")
        )
        session = tui
        try await tui.waitFor { $0.contains("metered: on") && $0.contains("a.bin") }
        try await tui.send("p")
        try await tui.waitFor {
            $0.contains("The network is metered. Allow a.bin on metered networks and resume it? [y/N]")
        }
        try await tui.send("y")
        try await tui.waitFor { self.line($0, "a.bin").contains("downloading") }
        // Quitting with it running asks; n pauses it.
        try await tui.send("q")
        try await tui.waitFor {
            $0.contains("1 download is running. Keep downloading in the background? [y]es · [n]o, pause")
        }
        try await tui.send("n")
        try await tui.waitFor { $0.contains("EXIT=0") }
        XCTAssertEqual(try download("a.bin")?["allowMetered"] as? Bool, true)
        XCTAssertEqual(try download("a.bin")?["state"] as? String, "paused")
    }

    func testMeteredCommandReachesARunningHaulAtOnce() async throws {
        try TestFiles.random(www + "/blocked.bin", size: 2_400_000)
        _ = try await haul("add", "-x", "1", nginx.url("slow/blocked.bin"))
        let runner = try spawnHaul(["run"], log: dir.path + "/run.log")
        try await waitUntil { (fileSize(downloads + "/blocked.bin.part") ?? 0) > 0 }

        let on = try await haul("metered", "on")
        XCTAssertEqual(on.status, 0, on.stderr)
        // Applied by the running haul, reached over its socket.
        XCTAssertTrue(on.stdout.hasPrefix("metered: on"), on.stdout)
        try await waitUntil(timeout: 3) {
            (try? self.download("blocked.bin"))??["pauseCause"] as? String == "metered"
        }
        let frozen = fileSize(downloads + "/blocked.bin.part")
        try await Task.sleep(for: .milliseconds(500))
        XCTAssertEqual(fileSize(downloads + "/blocked.bin.part"), frozen, "the running haul stopped it")

        let off = try await haul("metered", "off")
        XCTAssertEqual(off.status, 0, off.stderr)
        let status = await runner.wait(timeout: 30)
        XCTAssertEqual(status, 0, (try? String(contentsOfFile: dir.path + "/run.log", encoding: .utf8)) ?? "")
        XCTAssertTrue(sameFile(downloads + "/blocked.bin", www + "/blocked.bin"))
    }

    func testMeteredCommand() async throws {
        var result = try await haul("metered")
        XCTAssertEqual(result.stdout, "metered: off\n")
        result = try await haul("metered", "on", "--limit", "500K")
        XCTAssertEqual(result.stdout, "metered: on, cap 500 KiB/s\n", result.stderr)
        result = try await haul("metered", "auto", env: ["HAUL_METERED_PROBE": "echo 'u 1'"])
        XCTAssertEqual(result.stdout, "metered: auto (metered), cap 500 KiB/s\n")
        result = try await haul("metered", "auto", "--limit", "none", env: ["HAUL_METERED_PROBE": "exit 3"])
        XCTAssertEqual(result.stdout, "metered: auto (unknown)\n")
        result = try await haul("metered", "sometimes")
        XCTAssertEqual(result.status, 64)
        result = try await haul("metered", "on", "--limit", "fast")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--limit takes a speed"), result.stderr)

        _ = try await haul("add", "--paused", "http://127.0.0.1:9/x.bin")
        _ = try await haul("metered", "on")
        result = try await haul("resume", "--all")
        XCTAssertTrue(result.stderr.contains("will wait for an unmetered network"), result.stderr)
        result = try await haul("resume", "--all", "--allow-metered")
        XCTAssertFalse(result.stderr.contains("will wait"), result.stderr)
    }
}
