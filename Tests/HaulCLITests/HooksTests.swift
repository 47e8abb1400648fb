import Foundation
import HaulTestSupport
import XCTest

/// Hooks run by the haul that owns the downloads: saved with `haul hooks`, called as aria2
/// calls its scripts when asked, once per drain for the queue, and stopped when they hang.
final class HooksTests: NginxCLITestCase {
    var calls: String { dir.path + "/calls" }
    var script: String { dir.path + "/hook.sh" }

    override func setUp() async throws {
        try await super.setUp()
        // Like the aria2 scripts people keep: it reads its arguments and writes a line.
        try """
        #!/bin/sh
        echo "$HAUL_EVENT $*" >> "\(calls)"
        echo "output of the hook"
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
    }

    func succeed(_ arguments: String...) async throws {
        let result = try await haul(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func lines() -> [String] {
        ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func testAria2StyleHooksGetTheGIDTheCountAndThePathAndTheQueueHookRunsOncePerDrain() async throws {
        try TestFiles.random(www + "/one.bin", size: 400_000)
        try TestFiles.random(www + "/two.bin", size: 300_000)
        var result = try await haul(
            "hooks", "--on-complete", script, "--on-error", script, "--on-queue-empty", "\(script) drained",
            "--hook-args", "aria2")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("on-queue-empty: \(script) drained\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("hook-args: aria2"), result.stdout)

        try await succeed("add", nginx.url("one.bin"), nginx.url("two.bin"), nginx.url("gone.bin"))
        result = try await haul("run")
        XCTAssertEqual(result.status, 1, "one download fails: " + result.stderr)
        XCTAssertTrue(result.stderr.contains("haul: --on-complete \(script): output of the hook"), result.stderr)
        XCTAssertFalse(result.stderr.contains("warning: --on-complete"), "a hook's output is not a warning")
        let ids = Dictionary(
            uniqueKeysWithValues: try await listJSON().map { ($0["url"] as! String, $0["id"] as! String) })
        func gid(_ name: String) -> String {
            String(repeating: "0", count: 10) + (ids[nginx.url(name)] ?? "?")
        }
        XCTAssertEqual(
            Set(lines()),
            [
                "on-complete \(gid("one.bin")) 1 \(downloads)/one.bin",
                "on-complete \(gid("two.bin")) 1 \(downloads)/two.bin",
                "on-error \(gid("gone.bin")) 1 ", "on-queue-empty drained",
            ])
        // The queue's hook comes after the downloads' own.
        XCTAssertEqual(lines().last, "on-queue-empty drained")

        try TestFiles.random(www + "/three.bin", size: 200_000)
        try await succeed("add", nginx.url("three.bin"))
        try await succeed("run")
        XCTAssertEqual(lines().filter { $0 == "on-queue-empty drained" }.count, 2, "\(lines())")
        XCTAssertTrue(sameFile(www + "/three.bin", downloads + "/three.bin"))
        // A run whose one small file is done at once still runs it, before it exits.
        for round in 1...3 {
            try TestFiles.random(www + "/small\(round).bin", size: 1024)
            try await succeed("add", nginx.url("small\(round).bin"))
            try await succeed("run")
            XCTAssertEqual(lines().filter { $0 == "on-queue-empty drained" }.count, 2 + round, "\(lines())")
        }

        // The process's own flag takes the saved hook's place, for that process only.
        try await succeed("add", nginx.url("one.bin"), "-o", "again.bin")
        result = try await haul("run", "--on-complete", "\(script) flag", "--hook-args", "haul")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(lines().contains("on-complete flag \(downloads)/again.bin"), "\(lines())")
        result = try await haul("hooks", "--clear")
        XCTAssertTrue(result.stdout.contains("on-complete: none"), result.stdout)
    }

    func testAHookThatHangsIsStoppedAtItsLimitAndTheDownloadsGoOn() async throws {
        try TestFiles.random(www + "/a.bin", size: 300_000)
        try TestFiles.random(www + "/b.bin", size: 300_000)
        try await succeed("hooks", "--on-complete", "sh -c 'sleep 120; echo late'", "--hook-time-limit", "1")
        try await succeed("add", nginx.url("a.bin"))
        try await succeed("add", nginx.url("b.bin"))
        let started = Date()
        let result = try await haul("run", "--concurrency", "1")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "the run waited for the hanging hooks")
        XCTAssertFalse(result.stderr.contains("late"), "the script's own child was stopped too: " + result.stderr)
        XCTAssertTrue(sameFile(www + "/a.bin", downloads + "/a.bin") && sameFile(www + "/b.bin", downloads + "/b.bin"))
        XCTAssertEqual(
            result.stderr.components(separatedBy: "--on-complete sh ran longer than its time limit (1 s)").count - 1,
            2, result.stderr)
    }
}
