import Foundation
import HaulTestSupport
import XCTest

/// The `haul` command line as users run it, against nginx on loopback.
final class CommandLineTests: NginxCLITestCase {

    func testAddRunAndListJSON() async throws {
        try TestFiles.random(www + "/a.bin", size: 300_000)
        let add = try await haul("add", nginx.url("a.bin"), nginx.url("gone"))
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout.split(separator: "\n").count, 2)

        let run = try await haul("run")
        XCTAssertEqual(run.status, 1, "a failed download makes the exit code non-zero")
        XCTAssertTrue(run.stdout.contains("finished"), run.stdout)
        XCTAssertTrue(run.stdout.contains("link expired or removed (HTTP 410)"), run.stdout)
        XCTAssertTrue(sameFile(downloads + "/a.bin", www + "/a.bin"))

        let list = try await listJSON()
        XCTAssertEqual(list.count, 2)
        let finished = list[0]
        XCTAssertEqual(finished["state"] as? String, "finished")
        XCTAssertEqual(finished["path"] as? String, downloads + "/a.bin")
        XCTAssertEqual(finished["receivedBytes"] as? Int, 300_000)
        XCTAssertEqual(finished["totalBytes"] as? Int, 300_000)
        XCTAssertTrue(finished["reason"] is NSNull)
        XCTAssertEqual((finished["id"] as? String)?.count, 6)
        let failed = list[1]
        XCTAssertEqual(failed["state"] as? String, "failed")
        XCTAssertEqual(failed["reason"] as? String, "link expired or removed (HTTP 410)")
        XCTAssertTrue(failed["totalBytes"] is NSNull)
        XCTAssertTrue(failed["path"] is NSNull)
        XCTAssertEqual(failed["url"] as? String, nginx.url("gone"))

        let table = try await haul("ls")
        XCTAssertTrue(table.stdout.contains("a.bin"), table.stdout)
    }

    func testAddReadsAURLListFileAndOneBadLineAddsNothing() async throws {
        for name in ["a.bin", "b.bin", "c.bin"] { try TestFiles.random(www + "/" + name, size: 50_000) }
        let list = dir.path + "/urls.txt"
        try "# three files\n\n  \(nginx.url("a.bin"))  \n\(nginx.url("b.bin"))\n".write(
            toFile: list, atomically: true, encoding: .utf8)
        let bad = dir.path + "/bad.txt"
        try "\(nginx.url("c.bin"))\nftp://example.org/x\n".write(toFile: bad, atomically: true, encoding: .utf8)

        let refused = try await haul("add", "-i", bad)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("unsupported scheme 'ftp'"), refused.stderr)
        let afterRefusal = try await listJSON()
        XCTAssertEqual(afterRefusal.count, 0, "a bad line adds none of the list")

        let add = try await haul("add", "-i", list, nginx.url("c.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout.split(separator: "\n").count, 3)
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        for name in ["a.bin", "b.bin", "c.bin"] {
            XCTAssertTrue(sameFile(downloads + "/" + name, www + "/" + name), name)
        }
    }

    func testRemoveAllTakesManyDownloadsAtOnce() async throws {
        let list = dir.path + "/many.txt"
        try (0..<300).map { nginx.url("f\($0).bin") }.joined(separator: "\n").write(
            toFile: list, atomically: true, encoding: .utf8)
        let add = try await haul("add", "--paused", "-i", list)
        XCTAssertEqual(add.status, 0, add.stderr)
        let removed = try await haul("rm", "--all")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(removed.stdout.split(separator: "\n").filter { $0.contains("removed") }.count, 300)
        let after = try await listJSON()
        XCTAssertEqual(after.count, 0)
    }

    func testKillNineMidDownloadThenRunAgainAsksOnlyForTheMissingRange() async throws {
        let size = 4_000_000
        try TestFiles.random(www + "/big.bin", size: size)
        // One connection: its `.part` holds the file's first bytes (segmented downloads have
        // their own kill tests).
        let add = try await haul("add", "-x", "1", nginx.url("slow/big.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let first = try spawnHaul(["run"], log: dir.path + "/run1.log")
        let part = downloads + "/big.bin.part"
        try await waitUntil { (fileSize(part) ?? 0) > 800_000 }
        first.signal(SIGKILL)
        _ = await first.wait()
        let atKill = try XCTUnwrap(fileSize(part))
        XCTAssertLessThan(atKill, Int64(size))

        // The state file still parses after the kill.
        let list = try await listJSON()
        XCTAssertEqual(list.count, 1)

        let second = try await haul("run")
        XCTAssertEqual(second.status, 0, second.stdout + second.stderr)
        XCTAssertTrue(sameFile(downloads + "/big.bin", www + "/big.bin"))
        XCTAssertNil(fileSize(part))
        let requests = nginx.accessLog().filter { $0.uri == "/slow/big.bin" }
        XCTAssertEqual(requests.count, 2)
        let range = try XCTUnwrap(requests.last?.range)
        let resumedFrom = try XCTUnwrap(Int64(range.dropFirst("bytes=".count).dropLast()))
        XCTAssertGreaterThanOrEqual(resumedFrom, atKill)
        XCTAssertEqual(requests.last?.bytesSent, Int64(size) - resumedFrom)
        XCTAssertEqual(requests.last?.status, 206)
    }

    func testCommandsReachARunningHaulRun() async throws {
        // Twelve seconds at the slow rate: still running when the test, on a loaded machine, stops it.
        try TestFiles.random(www + "/big.bin", size: 12_000_000)
        try TestFiles.random(www + "/x.bin", size: 100_000)
        _ = try await haul("add", nginx.url("slow/big.bin"))
        let runner = try spawnHaul(["run"], log: dir.path + "/run.log")
        try await waitUntil { (fileSize(downloads + "/big.bin.part") ?? 0) > 0 }
        // Once refused ("already using the state file"); now handed to the running haul over its socket.
        let added = try await haul("add", nginx.url("x.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        try await waitUntil(timeout: 10) { self.sameFile(self.downloads + "/x.bin", self.www + "/x.bin") }
        let list = try await haul("ls")
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("x.bin") && list.stdout.contains("finished"), list.stdout)
        runner.signal(SIGTERM)
        let status = await runner.wait(timeout: 10)
        XCTAssertEqual(status, 130, "SIGTERM stops haul run cleanly")
        let after = try await listJSON()
        XCTAssertEqual(after.first?["state"] as? String, "waiting")
        XCTAssertGreaterThan(after.first?["receivedBytes"] as? Int ?? 0, 0)
    }

    /// A run left with only a download held by a policy says why it waits, and goes on once
    /// the policy lets it (here `haul metered off` from another shell).
    func testARunWaitingForAHeldDownloadSaysSo() async throws {
        try TestFiles.random(www + "/m.bin", size: 100_000)
        _ = try await haul("metered", "on")
        _ = try await haul("add", nginx.url("m.bin"))
        let runner = try spawnHaul(["run"], log: dir.path + "/run.log")
        try await waitUntil(timeout: 10) {
            ((try? String(contentsOfFile: self.dir.path + "/run.log", encoding: .utf8)) ?? "")
                .contains("paused m.bin: waiting for unmetered network (resumes by itself; the run waits for it")
        }
        XCTAssertNil(fileSize(downloads + "/m.bin"))
        let off = try await haul("metered", "off")
        XCTAssertEqual(off.status, 0, off.stderr)
        let status = await runner.wait(timeout: 10)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(sameFile(downloads + "/m.bin", www + "/m.bin"))
    }

    /// Cancelling the last download is what ends a `haul run`; the command that did it must
    /// still get its answer (it used to see the connection drop and exit 2).
    func testTheCommandThatEndsAHaulRunGetsItsAnswer() async throws {
        try TestFiles.random(www + "/big.bin", size: 3_000_000)
        for round in 0..<3 {
            _ = try await haul("add", nginx.url("slow/big.bin"))
            let runner = try spawnHaul(["run"], log: dir.path + "/run\(round).log")
            try await waitUntil {
                (try? FileManager.default.contentsOfDirectory(atPath: self.downloads))?.contains {
                    $0.hasSuffix(".part")
                } ?? false
            }
            let cancel = try await haul("cancel", "--all")
            XCTAssertEqual(cancel.status, 0, "round \(round): \(cancel.stderr)")
            XCTAssertTrue(cancel.stdout.contains("cancelled by user"), cancel.stdout)
            XCTAssertEqual(cancel.stderr, "", "round \(round)")
            let status = await runner.wait(timeout: 10)
            XCTAssertEqual(status, 0, "round \(round): a cancel is the user's choice, not a failure")
            _ = try await haul("rm", "--all")
        }
    }

    func testAStateHeldWithoutASocketIsWaitedForThenRefused() async throws {
        // A process holding the lock without serving a socket (as `haul add` briefly does).
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        let fd = open(statePath + ".lock", O_RDWR | O_CREAT, 0o600)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        _ = "\(getpid())\n".withCString { write(fd, $0, strlen($0)) }
        let refused = try await haul("add", nginx.url("x.bin"), env: ["HAUL_LOCK_WAIT": "0.3"])
        XCTAssertEqual(refused.status, 3)
        XCTAssertTrue(
            refused.stderr.contains("another haul (pid \(getpid())) is already using the state file"), refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, "one clear line")
        let list = try await haul("ls")
        XCTAssertEqual(list.status, 0, "reading is still allowed")
    }

    func testPauseResumeCancelAndRemoveByIDPrefix() async throws {
        try TestFiles.random(www + "/a.bin", size: 1000)
        _ = try await haul("add", nginx.url("a.bin"), "--paused")
        var list = try await listJSON()
        let id = try XCTUnwrap(list.first?["id"] as? String)
        XCTAssertEqual(list.first?["reason"] as? String, "paused by user")
        var result = try await haul("run")
        XCTAssertEqual(result.status, 0)
        XCTAssertNil(fileSize(downloads + "/a.bin"), "paused downloads are not started")

        result = try await haul("resume", String(id.prefix(3)))
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await haul("resume", id)
        XCTAssertEqual(result.status, 0, "idempotent")
        result = try await haul("run")
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(sameFile(downloads + "/a.bin", www + "/a.bin"))

        result = try await haul("cancel", "--all")
        XCTAssertEqual(result.status, 0)
        list = try await listJSON()
        XCTAssertEqual(list.first?["state"] as? String, "finished", "cancel leaves finished downloads alone")
        result = try await haul("rm", id)
        XCTAssertTrue(result.stdout.contains("file kept"), result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: downloads + "/a.bin"))
        list = try await listJSON()
        XCTAssertEqual(list.count, 0)
    }

    func testResumingAFailedDownloadSaysToRetryIt() async throws {
        _ = try await haul("add", nginx.url("gone"))
        _ = try await haul("run")
        let listed = try await listJSON()
        let id = try XCTUnwrap(listed.first?["id"] as? String)
        let resume = try await haul("resume", id)
        XCTAssertEqual(resume.status, 0, resume.stderr)
        XCTAssertTrue(resume.stdout.contains("failed downloads start again with 'haul retry \(id)'"), resume.stdout)
        let after = try await listJSON()
        XCTAssertEqual(after.first?["state"] as? String, "failed")
    }

    func testBadInputGetsOneClearLineAndChangesNothing() async throws {
        let urlList = dir.path + "/urls.txt"
        try "http://127.0.0.1/x\n".write(toFile: urlList, atomically: true, encoding: .utf8)
        let badList = dir.path + "/bad.txt"
        try "http://127.0.0.1/x\n# a note\n\nnot a url\n".write(toFile: badList, atomically: true, encoding: .utf8)
        let escapingList = dir.path + "/escaping.txt"
        try "http://127.0.0.1/x\n  dir=\(dir.path)\n  out=../../x.bin\n".write(
            toFile: escapingList, atomically: true, encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            (["add", "ftp://example.org/x"], 2, "unsupported scheme 'ftp'"),
            (["add", "not a url"], 2, "is not a valid URL"),
            (
                ["add", "-d", "/proc/self/status/dir", "http://127.0.0.1/x"], 2,
                "/proc/self/status is a file, not a folder"
            ),
            (["add", "--header", "Bad", "http://127.0.0.1/x"], 2, "is not of the form"),
            (["add", "--sha256", "xyz", "http://127.0.0.1/x"], 2, "64 hexadecimal digits"),
            (["add", "-i", "/nonexistent/urls.txt"], 2, "cannot read the URL list /nonexistent/urls.txt"),
            (["add", "-i", "/dev/null"], 2, "lists no URLs"),
            (
                ["add", urlList], 2,
                "\(urlList) is a file but not a torrent or Metalink file; for the URLs it lists, one per line: "
                    + "haul -i \(urlList) (or haul add -i \(urlList) to queue them)"
            ),
            (["add", "-i", "/dev/null", "-o", "x.bin"], 64, "-o names one file"),
            (["-o", "x.bin", "http://127.0.0.1/a", "http://127.0.0.1/b"], 64, "-o names one file"),
            (
                ["-x", "99", "http://127.0.0.1/x"], 64,
                "--connections must be between 1 and 32; a torrent's peers go up to 10000 with --bt-max-peers"
            ),
            (["-x16", "-s99", "http://127.0.0.1/x"], 64, "--split must be between 1 and 32"),
            (["-j", "0", "http://127.0.0.1/x"], 64, "-j takes a number of downloads, 1 or more"),
            (["--limit", "fast", "http://127.0.0.1/x"], 64, "'fast' is not a speed limit; try 500K or 2M"),
            (["--limit-rate=1x", "http://127.0.0.1/x"], 64, "'1x' is not a speed limit; try 500K or 2M"),
            (["-i", "/nonexistent/urls.txt"], 2, "cannot read the URL list /nonexistent/urls.txt: no such file"),
            (["-i", dir.path], 2, "cannot read the URL list \(dir.path): it is a folder"),
            (["add", "-i", badList], 2, "line 4: 'not a url' is not a valid URL"),
            (["add", "-i", escapingList], 2, "line 3, out=: '../../x.bin' leads out of the download's folder"),
            (
                ["add", "-O", "-", "http://127.0.0.1/x"], 2,
                "haul: -o - (standard output) is for 'haul URL -o -'; here downloads go into files"
            ),
            (["-qO-", "http://127.0.0.1/x", "http://127.0.0.1/y"], 64, "-o names one file; give one URL with it"),
            (
                ["-O", "-", "magnet:?xt=urn:btih:" + String(repeating: "a", count: 40)], 64,
                "a torrent's or a Metalink's"
            ),
            (["-k", "https://127.0.0.1/x"], 64, "haul always checks https certificates; to trust a server's own"),
            (["add", "--no-check-certificate", "https://127.0.0.1/x"], 64, "set SSL_CERT_FILE"),
            (["add", "gone.torrent"], 2, "cannot read the torrent file gone.torrent: no such file"),
            (["gone.meta4"], 2, "cannot read the Metalink file gone.meta4: no such file"),
            (["pause", "zzzzzz"], 2, "no download with id 'zzzzzz'"),
            (["pause"], 64, "give one or more ids, or --all"),
        ]
        for (arguments, status, message) in cases {
            let result = try await ChildProcess.run(
                HaulBinary.path, arguments, environment: environment(), in: dir.path)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        let list = try await listJSON()
        XCTAssertEqual(list.count, 0)
    }

    /// The directory is checked before the state is opened: with 100,000 downloads reading it took
    /// 0.6 s, and a damaged state file is not moved aside for a command that cannot run anyway.
    func testABadDirectoryIsRefusedBeforeTheStateIsRead() async throws {
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        let damaged = Data("{\"version\": 1, \"downloads\": [".utf8)
        try damaged.write(to: URL(fileURLWithPath: statePath))
        let result = try await haul("add", "-d", "/proc/self/status/dir", "http://127.0.0.1/x")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(
            result.stderr,
            "haul: cannot create the folder /proc/self/status/dir: /proc/self/status is a file, not a folder\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: statePath)), damaged)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path + "/state").filter { $0.contains("corrupt") },
            [])
    }

    func testWithoutATerminalTheTUISaysSoAndFails() async throws {
        let result = try await haul()
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("needs a terminal"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testHelp() async throws {
        let result = try await haul("--help")
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("USAGE: haul"), result.stdout)
        XCTAssertTrue(result.stdout.contains("SSL_CERT_FILE"), result.stdout)
        let help = try await haul("add", "--help")
        XCTAssertTrue(help.stdout.contains("--sha256"), help.stdout)
        let direct = try await haul("http://127.0.0.1/a.iso", "--help")
        XCTAssertTrue(direct.stdout.contains("USAGE: haul get"), direct.stdout)
        XCTAssertTrue(direct.stdout.contains("--sha256") && direct.stdout.contains("-j, --concurrency"), direct.stdout)
    }
}

final class SameNameTests: CLITestCase {
    /// `-o` with a magnet link: the torrent keeps its own names, as with aria2c, and says so.
    func testANameForATorrentIsSaidToBeUnused() async throws {
        let magnet = "magnet:?xt=urn:btih:fcabb9b3406c627adfa1918d7a276b454f34abd7&dn=img.iso"
        let added = try await haul("add", "--paused", "-o", "named.iso", magnet)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(
            added.stderr,
            "haul: warning: -o does not rename a torrent: its files keep the names the torrent gives them\n")
        let listed = try await haul("ls")
        XCTAssertTrue(listed.stdout.contains("img.iso") && !listed.stdout.contains("named.iso"), listed.stdout)
    }

    func testTwoDownloadsAskingForTheSameNameNeverShareAFile() async throws {
        let www = dir.subdirectory("www")
        let nginx = try await NginxServer(root: www, slowRate: "2m", workDirectory: dir.subdirectory("nginx"))
        defer { Task { await nginx.stop() } }
        try TestFiles.random(www + "/a.bin", size: 1_500_000)
        try TestFiles.random(www + "/b.bin", size: 900_000)
        try "mine".write(toFile: downloads + "/same.bin", atomically: true, encoding: .utf8)
        _ = try await haul("add", "-o", "same.bin", nginx.url("slow/a.bin"))
        _ = try await haul("add", "-o", "same.bin", nginx.url("slow/b.bin"))
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stderr + run.stdout)
        XCTAssertEqual(
            try String(contentsOfFile: downloads + "/same.bin", encoding: .utf8), "mine",
            "an existing file is never touched")
        let list = try await listJSON()
        let paths = list.compactMap { $0["path"] as? String }
        XCTAssertEqual(Set(paths).count, 2, "two different names: \(paths)")
        for entry in list {
            let url = try XCTUnwrap(entry["url"] as? String)
            let path = try XCTUnwrap(entry["path"] as? String)
            XCTAssertTrue(sameFile(path, www + "/" + (url.hasSuffix("a.bin") ? "a.bin" : "b.bin")), path)
        }
    }
}
