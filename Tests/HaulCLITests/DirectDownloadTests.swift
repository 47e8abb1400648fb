import Foundation
import HaulTestSupport
import XCTest

/// `haul URL…` as a wget user types it: in a real terminal (tmux) against nginx, and with its
/// output going to a file.
final class DirectDownloadTests: NginxCLITestCase {
    override var slowRate: String { "400k" }
    var sessions: [TmuxSession] = []

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        try await super.tearDown()
    }

    /// A shell in tmux in `cwd`, where each command typed is followed by its exit code.
    func shell(in cwd: String) async throws -> TmuxSession {
        let session = try await TmuxSession(
            command: "/bin/sh", width: 120, height: 30,
            environment: environment(["TERM": "xterm-256color", "PS1": "$ "]), workDirectory: cwd)
        sessions.append(session)
        _ = try await session.waitFor { $0.contains("$") }
        try await session.send("cd '\(cwd)' && clear", literal: true)
        try await session.send("Enter")
        return session
    }

    /// `haul` with `arguments`, run in `cwd` (a child process starts in the test's own folder).
    func haul(in cwd: String, _ arguments: [String], env: [String: String] = [:]) async throws -> CommandResult {
        try await ChildProcess.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", cwd, HaulBinary.path] + arguments,
            environment: environment(env), in: cwd, timeout: 60)
    }

    /// `haul ARGUMENTS` in `cwd`, stopped with Ctrl-C once `part` there holds more than 300 KB.
    func interrupted(in cwd: String, _ arguments: [String], once part: String) async throws {
        let log = dir.path + "/interrupted.log"
        let child = try ChildProcess(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", cwd, HaulBinary.path] + arguments,
            environment: environment(), stdout: log, stderr: log)
        try await waitUntil { (self.fileSize(cwd + "/" + part) ?? 0) > 300_000 }
        child.signal(SIGINT)
        let status = await child.wait()
        XCTAssertEqual(status, 130, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    /// The shell printed the exit code (the command line itself shows `EXIT=$?`).
    static func exited(_ screen: String) -> Bool { screen.range(of: #"EXIT=\d"#, options: .regularExpression) != nil }

    func type(_ session: TmuxSession, _ line: String) async throws {
        try await session.send("'\(HaulBinary.path)' \(line); echo \"EXIT=$?\"", literal: true)
        try await session.send("Enter")
    }

    func testCtrlCKeepsTheBytesAndTheSameCommandResumesWithARangeRequest() async throws {
        try TestFiles.random(www + "/movie.bin", size: 3_000_000)
        try TestFiles.random(www + "/small.bin", size: 10_000)
        // One connection to this host, so the download is still going when Ctrl-C comes.
        let oneConnection = try await haul("connections", "1", "--for", "127.0.0.1")
        XCTAssertEqual(oneConnection.status, 0, oneConnection.stderr)
        let cwd = dir.subdirectory("work")
        let url = nginx.url("slow/movie.bin")
        let tui = try await shell(in: cwd)
        try await type(tui, "-j 2 \(nginx.url("small.bin")) \(url)")
        // A live line with the name and a percentage, then Ctrl-C part way.
        _ = try await tui.waitFor { (TUITests.percent(in: $0, row: "movie.bin") ?? 0) >= 10 }
        try await tui.send("C-c")
        var screen = try await tui.waitFor(Self.exited)
        XCTAssertTrue(screen.contains("EXIT=130"), screen)
        XCTAssertTrue(screen.contains("interrupted; progress saved"), screen)
        let partial = fileSize(cwd + "/movie.bin.part") ?? 0
        XCTAssertGreaterThan(partial, 0, "the .part stays")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cwd + "/movie.bin"))

        XCTAssertTrue(sameFile(www + "/small.bin", cwd + "/small.bin"), "the small file finished before Ctrl-C")

        // The same command again: the small file is already here, the movie goes on.
        try await tui.send("clear", "Enter")
        try await type(tui, "-j 2 \(nginx.url("small.bin")) \(url)")
        screen = try await tui.waitFor(timeout: 30, Self.exited)
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        XCTAssertTrue(screen.contains("done: 2 finished"), screen)
        XCTAssertTrue(screen.contains("already here: \(cwd)/small.bin"), screen)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cwd + "/small (1).bin"), "no second copy")
        XCTAssertTrue(sameFile(www + "/movie.bin", cwd + "/movie.bin"))
        let requests = nginx.accessLog().filter { $0.uri == "/slow/movie.bin" }
        XCTAssertTrue(
            requests.contains { ($0.range ?? "").hasPrefix("bytes=") && $0.range != "bytes=0-" },
            "the rerun asked for the rest: \(requests.map { $0.range ?? "-" })")
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 2, "the rerun took up the same downloads")
    }

    /// The same command run again with other options takes them, as a new wget command line
    /// does, and keeps the bytes: a download that failed through a proxy that refuses goes on
    /// without it, and sends the header given last.
    func testRunAgainTheCommandTakesTheOptionsGivenNowAndKeepsTheBytes() async throws {
        try TestFiles.random(www + "/movie.bin", size: 3_000_000)
        let cwd = dir.subdirectory("work")
        let url = nginx.url("slow/movie.bin")
        try await interrupted(in: cwd, ["-x", "1", "--header", "X-Secret: one", url], once: "movie.bin.part")
        let kept = try XCTUnwrap(fileSize(cwd + "/movie.bin.part"))

        let refused = try await haul(
            in: cwd, ["--proxy", "http://127.0.0.1:\(FreePort.find())", url], env: ["HAUL_MAX_RETRIES": "0"])
        XCTAssertEqual(refused.status, 1, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stdout.contains("cannot connect to the proxy"), refused.stdout)
        XCTAssertEqual(fileSize(cwd + "/movie.bin.part"), kept, "the failed run kept the bytes")

        let last = try await haul(in: cwd, ["--proxy", "none", "--header", "X-Secret: two", url])
        XCTAssertEqual(last.status, 0, last.stdout + last.stderr)
        XCTAssertTrue(sameFile(www + "/movie.bin", cwd + "/movie.bin"))
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 1, "every run took up the same download")
        let secrets = nginx.credentialsLog().filter { $0.hasPrefix("/slow/movie.bin|") }.map {
            $0.split(separator: "|", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        }
        XCTAssertEqual(secrets.first, "one")
        XCTAssertEqual(secrets.last, "two", "the last run sent the header given to it: \(secrets)")
        let ranges = nginx.accessLog().filter { $0.uri == "/slow/movie.bin" }.compactMap(\.range)
        XCTAssertTrue(
            ranges.contains { $0.hasPrefix("bytes=") && $0 != "bytes=0-" },
            "the last run asked for the rest only: \(ranges)")
    }

    /// `-o` given anew names the file: the `.part` is renamed (never over a file that is
    /// there) and its bytes kept.
    func testRunAgainWithAnotherNameRenamesThePartAndKeepsTheBytes() async throws {
        try TestFiles.random(www + "/movie.bin", size: 3_000_000)
        let cwd = dir.subdirectory("work")
        let url = nginx.url("slow/movie.bin")
        try await interrupted(in: cwd, ["-x", "1", "-o", "first.bin", url], once: "first.bin.part")
        try "mine".write(toFile: cwd + "/second.bin", atomically: false, encoding: .utf8)

        let renamed = try await haul(in: cwd, ["-o", "second.bin", url])
        XCTAssertEqual(renamed.status, 0, renamed.stdout + renamed.stderr)
        XCTAssertTrue(sameFile(www + "/movie.bin", cwd + "/second (1).bin"), renamed.stdout)
        XCTAssertEqual(try String(contentsOfFile: cwd + "/second.bin", encoding: .utf8), "mine")
        for gone in ["first.bin", "first.bin.part"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: cwd + "/" + gone), gone)
        }
        let ranges = nginx.accessLog().filter { $0.uri == "/slow/movie.bin" }.compactMap(\.range)
        XCTAssertTrue(
            ranges.contains { $0.hasPrefix("bytes=") && $0 != "bytes=0-" }, "the rerun asked for the rest: \(ranges)")
        let again = try await haul(in: cwd, ["-o", "second.bin", url])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("already here: \(cwd)/second (1).bin"), again.stdout)
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 1, "every run took up the same download")
    }

    /// Following a daemon, the list's line counts the command's own files once each.
    func testAFollowersLiveLinesCountItsOwnFilesOnce() async throws {
        try TestFiles.random(www + "/a.bin", size: 1_200_000)
        try TestFiles.random(www + "/b.bin", size: 1_200_000)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        try await waitUntil {
            ((try? String(contentsOfFile: self.dir.path + "/daemon.log", encoding: .utf8)) ?? "").contains("serving")
        }
        let cwd = dir.subdirectory("work")
        let tui = try await shell(in: cwd)
        try await type(tui, "-x 1 \(nginx.url("slow/a.bin")) \(nginx.url("slow/b.bin"))")
        let screen = try await tui.waitFor { $0.contains("/2 files") || $0.contains("/4 files") }
        XCTAssertTrue(screen.contains("took the downloads"), screen)
        XCTAssertTrue(screen.contains("0/2 files"), screen)
        _ = try await tui.waitFor(timeout: 30, Self.exited)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/a.bin"))
    }

    func testTheLiveLineShowsBeforeTheServerAnswers() async throws {
        let server = try FaultServer { _, _ in
            [.sleep(10), .send(FaultServer.head(200, [("Content-Length", "5")]) + Array("hello".utf8))]
        }
        defer { server.stop() }
        let cwd = dir.subdirectory("work")
        let tui = try await shell(in: cwd)
        try await type(tui, server.url("late.bin"))
        // The download's line is there while the server has not answered, not only from its
        // first byte, and says so: a terminal left blank, or at "0 B/s", looks like a hung command.
        let waiting = try await tui.waitFor(timeout: 8) { $0.contains("waiting for the server  late.bin") }
        XCTAssertFalse(Self.exited(waiting), waiting)
        let screen = try await tui.waitFor(timeout: 20, Self.exited)
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        XCTAssertEqual(try String(contentsOfFile: cwd + "/late.bin", encoding: .utf8), "hello")
    }

    func testAMetalinkFileIsFetchedAsAriaWouldAndAListFileIsAnsweredWithI() async throws {
        try TestFiles.random(www + "/a.bin", size: 100_000)
        try TestFiles.random(www + "/b.bin", size: 200_000)
        let cwd = dir.subdirectory("work")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <file name="one.bin"><url>\(nginx.url("a.bin"))</url></file>
          <file name="two.bin"><url>\(nginx.url("b.bin"))</url></file>
        </metalink>
        """.write(toFile: cwd + "/files.meta4", atomically: true, encoding: .utf8)
        let fetched = try await haul(in: cwd, ["files.meta4"])
        XCTAssertEqual(fetched.status, 0, fetched.stdout + fetched.stderr)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/one.bin"))
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/two.bin"))
        XCTAssertTrue(fetched.stdout.contains("done: 2 finished"), fetched.stdout)

        try "\(nginx.url("a.bin"))\n".write(toFile: cwd + "/urls.txt", atomically: true, encoding: .utf8)
        let list = try await haul(in: cwd, ["urls.txt"])
        XCTAssertEqual(list.status, 2, list.stdout + list.stderr)
        XCTAssertEqual(
            list.stderr,
            "haul: urls.txt is a file but not a torrent or Metalink file; for the URLs it lists, one per line: "
                + "haul -i urls.txt (or haul add -i urls.txt to queue them)\n")
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 2, "the list file added nothing")

        // As the sentence says, and with add's options, as aria2c takes them before or after the URL.
        let fromList = try await haul(in: cwd, ["-i", "urls.txt", "-j", "2", "-d", "got"])
        XCTAssertEqual(fromList.status, 0, fromList.stdout + fromList.stderr)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/got/a.bin"), fromList.stdout)
        let named = try await haul(in: cwd, [nginx.url("b.bin"), "-o", "named.bin", "-x", "2", "--limit", "1M"])
        XCTAssertEqual(named.status, 0, named.stdout + named.stderr)
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/named.bin"), named.stdout)
        let all = try await listJSON()
        XCTAssertEqual(all.count, 4)
        let state = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath)))
        let settings = (state as? [String: Any])?["settings"] as? [String: Any]
        XCTAssertEqual(settings?["concurrency"] as? Int, 2, "-j is saved, as run's is")
    }

    /// A Metalink's names with folders, as aria2c takes them: each file in its folders, made
    /// below the download's folder, the first file of a Metalink served by a URL too; a name
    /// that would lead out of the folder keeps its last part, there.
    func testAMetalinksFoldersAreMadeBelowTheFolder() async throws {
        try TestFiles.random(www + "/a.bin", size: 50_000)
        try TestFiles.random(www + "/b.bin", size: 60_000)
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="linux/x86/same.bin"><url>\(nginx.url("a.bin"))</url></file>
              <file name="windows/same.bin"><url>\(nginx.url("b.bin"))</url></file>
              <file name="../../up.bin"><url>\(nginx.url("a.bin?up"))</url></file>
            </metalink>
            """
        let cwd = dir.subdirectory("work")
        try document.write(toFile: cwd + "/tree.meta4", atomically: true, encoding: .utf8)
        let fetched = try await haul(in: cwd, ["tree.meta4", "-d", "local"])
        XCTAssertEqual(fetched.status, 0, fetched.stdout + fetched.stderr)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/local/linux/x86/same.bin"), fetched.stdout)
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/local/windows/same.bin"), fetched.stdout)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/local/up.bin"), fetched.stdout)

        try document.write(toFile: www + "/tree.meta4", atomically: true, encoding: .utf8)
        let followed = try await haul(in: cwd, [nginx.url("tree.meta4"), "-d", "served"])
        XCTAssertEqual(followed.status, 0, followed.stdout + followed.stderr)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/served/linux/x86/same.bin"), followed.stdout)
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/served/windows/same.bin"), followed.stdout)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/served/up.bin"), followed.stdout)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cwd + "/served").sorted(),
            ["linux", "up.bin", "windows"])
        XCTAssertTrue(fetched.stdout.contains("done: 3 finished"), fetched.stdout)
        XCTAssertTrue(followed.stdout.contains("done: 3 finished"), "each file is followed: \(followed.stdout)")
        // The same command again finds all three where it put them.
        let added = try await listJSON().count
        let again = try await haul(in: cwd, [nginx.url("tree.meta4"), "-d", "served"])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("already here: \(cwd)/served/windows/same.bin"), again.stdout)
        XCTAssertTrue(again.stdout.contains("done: 3 finished"), again.stdout)
        let after = try await listJSON().count
        XCTAssertEqual(after, added, "nothing added again")
    }

    /// nginx serves `files.meta4`, naming `one.bin` and `two.bin` (a.bin and b.bin, capped):
    /// returns its URL.
    func serveAMetalinkOfTwoFiles() throws -> String {
        try TestFiles.random(www + "/a.bin", size: 1_000_000)
        try TestFiles.random(www + "/b.bin", size: 600_000)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <file name="one.bin"><url>\(nginx.url("slow/a.bin"))</url></file>
          <file name="two.bin"><url>\(nginx.url("slow/b.bin"))</url></file>
        </metalink>
        """.write(toFile: www + "/files.meta4", atomically: true, encoding: .utf8)
        return nginx.url("files.meta4")
    }

    /// A URL that serves a Metalink is all of its files, as aria2c takes it: the command fetches
    /// and waits for every one, and the same command again takes up what it left, by that URL.
    func testAMetalinksURLFetchesEveryFileAndTheSameCommandTakesThemUp() async throws {
        let url = try serveAMetalinkOfTwoFiles()
        let cwd = dir.subdirectory("work")
        let log = dir.path + "/first.log"
        let first = try ChildProcess(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", cwd, HaulBinary.path, url],
            environment: environment(), stdout: log, stderr: log)
        // Both files run in the first command, the Metalink's second one too.
        try await waitUntil {
            (self.fileSize(cwd + "/one.bin.part") ?? 0) > 100_000 && (self.fileSize(cwd + "/two.bin.part") ?? 0) > 0
        }
        first.signal(SIGINT)
        let firstStatus = await first.wait()
        let firstOutput = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(firstStatus, 130, firstOutput)
        XCTAssertTrue(firstOutput.contains("0 finished, 2 left to resume"), firstOutput)

        let again = try await haul(in: cwd, [url])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("done: 2 finished"), again.stdout)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/one.bin"))
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/two.bin"))
        let taken = try await listJSON()
        XCTAssertEqual(taken.count, 2, "the second command took up the first one's downloads")
        let ranges = nginx.accessLog().filter { $0.uri == "/slow/a.bin" }.compactMap(\.range)
        XCTAssertTrue(ranges.contains { $0 != "bytes=0-" }, "the rest was asked for: \(ranges)")

        // Once more: both are here, and nothing is asked of the server.
        let requests = nginx.accessLog().count
        let third = try await haul(in: cwd, [url])
        XCTAssertEqual(third.status, 0, third.stdout + third.stderr)
        XCTAssertTrue(third.stdout.contains("already here: \(cwd)/one.bin ('haul add \(url)'"), third.stdout)
        XCTAssertTrue(third.stdout.contains("already here: \(cwd)/two.bin"), third.stdout)
        XCTAssertEqual(nginx.accessLog().count, requests, "no request")
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 2)

        // A file of it deleted since is fetched again, and only that one.
        try FileManager.default.removeItem(atPath: cwd + "/two.bin")
        let fourth = try await haul(in: cwd, [url])
        XCTAssertEqual(fourth.status, 0, fourth.stdout + fourth.stderr)
        XCTAssertTrue(fourth.stdout.contains("already here: \(cwd)/one.bin"), fourth.stdout)
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/two.bin"), fourth.stdout)
        XCTAssertEqual(nginx.accessLog().dropFirst(requests).map(\.uri), ["/slow/b.bin"])
        let afterRefetch = try await listJSON()
        XCTAssertEqual(afterRefetch.count, 2, "the same download fetched it again")
    }

    /// A `kill -9` right after the download became the Metalink's first file, before any save:
    /// the same command again fetches both files whole (it had gone on from the Metalink's URL
    /// into the first file, and left the second one's `.part` to no download).
    func testAKillRightAfterAMetalinkWasFollowedLosesNeitherFile() async throws {
        let url = try serveAMetalinkOfTwoFiles()
        let cwd = dir.subdirectory("work")
        let first = try ChildProcess(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", cwd, HaulBinary.path, url], environment: environment(),
            stdout: dir.path + "/first.log", stderr: dir.path + "/first.log")
        try await waitUntil { self.fileSize(cwd + "/one.bin.part") != nil }
        first.signal(SIGKILL)
        _ = await first.wait()

        let again = try await haul(in: cwd, [url])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("done: 2 finished"), again.stdout)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/one.bin"))
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/two.bin"))
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 2, "\(listed)")
        let left = try FileManager.default.contentsOfDirectory(atPath: cwd).filter { $0.hasSuffix(".part") }
        XCTAssertEqual(left, [], "no .part left behind")
    }

    /// `-q`, as wget's and aria2c's: a script sees only why a download failed, on standard error.
    func testQuietPrintsOnlyWhyADownloadFailed() async throws {
        try TestFiles.random(www + "/a.bin", size: 100_000)
        let cwd = dir.subdirectory("work")
        let quiet = try await haul(in: cwd, ["-q", nginx.url("a.bin"), nginx.url("missing.bin")])
        XCTAssertEqual(quiet.status, 1, quiet.stdout + quiet.stderr)
        XCTAssertEqual(quiet.stdout, "")
        let lines = quiet.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, quiet.stderr)
        XCTAssertTrue(
            lines.first?.hasSuffix(" failed missing.bin: not found on the server (HTTP 404)") == true, quiet.stderr)
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/a.bin"))

        let queued = try await haul("add", "-d", cwd + "/queued", nginx.url("a.bin"))
        XCTAssertEqual(queued.status, 0, queued.stderr)
        let run = try await haul("run", "--quiet")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.stdout + run.stderr, "")
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/queued/a.bin"))
    }

    func testTwoURLsAnExistingFileAndPlainLinesWhenNotATerminal() async throws {
        try TestFiles.random(www + "/a.bin", size: 200_000)
        try TestFiles.random(www + "/b.bin", size: 300_000)
        let cwd = dir.subdirectory("work")
        try "mine".write(toFile: cwd + "/a.bin", atomically: true, encoding: .utf8)
        let result = try await haul(in: cwd, [nginx.url("a.bin"), nginx.url("b.bin")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOfFile: cwd + "/a.bin", encoding: .utf8), "mine", "never overwritten")
        XCTAssertTrue(sameFile(www + "/a.bin", cwd + "/a (1).bin"))
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/b.bin"))
        // Not a terminal: a log line per event, no cursor movement.
        XCTAssertTrue(result.stdout.contains("finished \(cwd)/a (1).bin"), result.stdout)
        XCTAssertTrue(result.stdout.contains("finished \(cwd)/b.bin"), result.stdout)
        XCTAssertTrue(result.stdout.contains("done: 2 finished"), result.stdout)
        XCTAssertFalse(result.stdout.contains("\u{1B}["), result.stdout)

        // A download that fails: exit 1, named; the rest of the queue is not run.
        let queued = try await haul("add", "--paused", nginx.url("b.bin"))
        XCTAssertEqual(queued.status, 0, queued.stderr)
        let missing = try await haul(in: cwd, [nginx.url("missing.bin")])
        XCTAssertEqual(missing.status, 1, missing.stdout + missing.stderr)
        XCTAssertTrue(missing.stdout.contains("1 failed"), missing.stdout)
        let states = try await listJSON().map { $0["state"] as? String ?? "" }
        XCTAssertEqual(states.filter { $0 == "paused" }.count, 1, "the rest of the queue is left alone")
    }

    /// wget's `-nc`: a file already in the folder is left alone and not fetched; `-nv`: a line
    /// per finished file, none when one starts.
    func testNoClobberLeavesAFileThatIsHereAndNoVerboseSaysOnlyWhatFinished() async throws {
        try TestFiles.random(www + "/a.bin", size: 100_000)
        try TestFiles.random(www + "/b.bin", size: 100_000)
        let cwd = dir.subdirectory("work")
        try "mine".write(toFile: cwd + "/a.bin", atomically: true, encoding: .utf8)
        let result = try await haul(in: cwd, ["-nc", "-nv", nginx.url("a.bin"), nginx.url("b.bin")])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try String(contentsOfFile: cwd + "/a.bin", encoding: .utf8), "mine")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cwd + "/a (1).bin"), "no copy beside it")
        XCTAssertTrue(sameFile(www + "/b.bin", cwd + "/b.bin"))
        XCTAssertTrue(result.stdout.contains("\(cwd)/a.bin is here already: not fetched (-nc)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("finished \(cwd)/b.bin"), result.stdout)
        XCTAssertFalse(result.stdout.contains(" started "), result.stdout)
        XCTAssertEqual(nginx.accessLog().map(\.uri), ["/b.bin"], "a.bin was not asked for")
        // Everything here already: nothing is fetched, and that is a success.
        let again = try await haul(in: cwd, ["--no-clobber", nginx.url("b.bin")])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertEqual(nginx.accessLog().count, 1, "no request")
    }

    /// curl's `--max-time N`: the command stops after N seconds as Ctrl-C stops it (the bytes
    /// kept), says why, and exits 1; the same command without it goes on from there.
    func testMaxTimeStopsTheCommandAndKeepsTheBytes() async throws {
        try TestFiles.random(www + "/movie.bin", size: 3_000_000)
        let cwd = dir.subdirectory("work")
        let url = nginx.url("slow/movie.bin")
        let started = Date()
        let stopped = try await haul(in: cwd, ["--max-time", "2", "-x", "1", url])
        XCTAssertEqual(stopped.status, 1, stopped.stdout + stopped.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "3 MB at 400 KB/s takes 7 s or more")
        XCTAssertTrue(stopped.stderr.contains("--max-time: 2 s passed; stopped as Ctrl-C stops"), stopped.stderr)
        XCTAssertTrue(
            stopped.stdout.contains("interrupted; progress saved: 0 finished, 1 left to resume"), stopped.stdout)
        let kept = try XCTUnwrap(fileSize(cwd + "/movie.bin.part"))
        XCTAssertGreaterThan(kept, 0)
        let resumed = try await haul(in: cwd, ["-x", "1", url])
        XCTAssertEqual(resumed.status, 0, resumed.stdout + resumed.stderr)
        XCTAssertTrue(sameFile(www + "/movie.bin", cwd + "/movie.bin"))
        let ranges = nginx.accessLog().filter { $0.uri == "/slow/movie.bin" }.compactMap(\.range)
        XCTAssertFalse(ranges.isEmpty, "the rerun asked for the rest only")
    }

    /// wget's `-qO-` and curl's `-o -`: the bytes go to standard output as they arrive (the reader
    /// has some before the file is whole), nothing else does, and nothing is left behind: no
    /// download in the state, no folder under `$TMPDIR`. A reader that leaves stops the download.
    func testStandardOutputStreamsTheFileAndLeavesNothingBehind() async throws {
        try TestFiles.random(www + "/movie.bin", size: 3_000_000)
        let cwd = dir.subdirectory("work")
        let temporary = dir.subdirectory("tmp")
        let env = ["TMPDIR": temporary]
        let piped = dir.path + "/piped.bin"
        let child = try ChildProcess(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", cwd, HaulBinary.path, "-qO-", nginx.url("slow/movie.bin")],
            environment: environment(env), stdout: piped, stderr: dir.path + "/piped.err")
        try await waitUntil { (self.fileSize(piped) ?? 0) > 300_000 }
        XCTAssertLessThan(fileSize(piped) ?? 0, 3_000_000, "bytes came before the file was whole")
        let status = await child.wait()
        XCTAssertEqual(status, 0, (try? String(contentsOfFile: dir.path + "/piped.err", encoding: .utf8)) ?? "")
        XCTAssertTrue(sameFile(www + "/movie.bin", piped))
        XCTAssertEqual(try String(contentsOfFile: dir.path + "/piped.err", encoding: .utf8), "", "nothing but the file")

        let curls = try await haul(in: cwd, ["-fsSL", nginx.url("missing.bin"), "-o", "-"], env: env)
        XCTAssertEqual(curls.status, 1)
        XCTAssertEqual(curls.stdout, "", "a failure says why on standard error only")
        XCTAssertTrue(curls.stderr.contains("failed missing.bin: not found on the server (HTTP 404)"), curls.stderr)

        try TestFiles.random(www + "/long.bin", size: 20_000_000)
        let reader = try await ChildProcess.run(
            "/bin/sh",
            [
                "-c", "cd \"$0\" && (\"$1\" -qO- \"$2\"; echo $? > status) | head -c 1000 > head.bin", cwd,
                HaulBinary.path, nginx.url("slow/long.bin"),
            ], environment: environment(env), in: cwd, timeout: 60)
        XCTAssertEqual(reader.status, 0, reader.stderr)
        XCTAssertEqual(try String(contentsOfFile: cwd + "/status", encoding: .utf8), "1\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cwd + "/head.bin")).count, 1000)
        let sent = nginx.accessLog().filter { $0.uri == "/slow/long.bin" }.map(\.bytesSent).reduce(0, +)
        XCTAssertLessThan(sent, 20_000_000, "the download stopped when its reader left")

        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
        let listed = try await haul(in: cwd, ["ls"])
        XCTAssertTrue(listed.stdout.contains("no downloads"), listed.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cwd).sorted(), ["head.bin", "status"])
    }

    /// wget's `-T N` (aria2c's `--timeout`): a server that stops sending mid-body fails the try
    /// after N seconds, not the default 30.
    func testTimeoutEndsAStalledTryAfterItsSeconds() async throws {
        let server = try FaultServer { _, _ in
            [.send(FaultServer.head(200, [("Content-Length", "100")]) + Array("hello".utf8)), .sleep(40)]
        }
        defer { server.stop() }
        let stalled = try await haul(in: dir.subdirectory("work"), ["-T", "2", "-t", "1", server.url("slow.bin")])
        XCTAssertEqual(stalled.status, 1, stalled.stdout + stalled.stderr)
        XCTAssertTrue(stalled.stdout.contains("failed slow.bin: stalled: no data for 2 s"), stalled.stdout)
        let refused = try await haul(in: dir.subdirectory("work"), ["--connect-timeout", "0", server.url("x")])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--connect-timeout takes a number of seconds, 1 or more"), refused.stderr)
    }

    /// wget's `-t N` and aria2c's `--max-tries N` count every attempt: a port that refuses is
    /// asked N times, then the download fails.
    func testTriesCountEveryAttemptAsWgetAndAria2cCountThem() async throws {
        let url = "http://127.0.0.1:\(FreePort.find())/file.iso"
        let fast = ["HAUL_RETRY_BASE": "0.01"]
        let twice = try await haul(in: dir.subdirectory("work"), ["-t", "2", url], env: fast)
        XCTAssertEqual(twice.status, 1, twice.stdout + twice.stderr)
        XCTAssertTrue(twice.stdout.contains("(try 2 of 2)"), twice.stdout)
        XCTAssertFalse(twice.stdout.contains("try 3"), twice.stdout)
        let once = try await haul(in: dir.subdirectory("once"), ["--max-tries", "1", url], env: fast)
        XCTAssertEqual(once.status, 1, once.stdout + once.stderr)
        XCTAssertFalse(once.stdout.contains("retrying"), once.stdout)
        XCTAssertTrue(once.stdout.contains("failed file.iso: cannot connect to 127.0.0.1"), once.stdout)
    }

    /// A host whose name does not exist fails at once, in one line, as curl, wget and aria2c do;
    /// asked again it would not exist either.
    func testAHostThatDoesNotExistFailsAtOnceWithoutRetrying() async throws {
        let host = "no-such-host.invalid"
        // What the machine's resolver says of the name decides what haul may conclude from it.
        var found: UnsafeMutablePointer<addrinfo>?
        let answer = getaddrinfo(host, "80", nil, &found)
        if let found { freeaddrinfo(found) }
        try XCTSkipUnless(
            answer == EAI_NONAME, "this machine's resolver answers \(answer), not that no such host exists")
        let result = try await haul(in: dir.subdirectory("work"), ["http://\(host)/file.iso"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("cannot connect to \(host):80: no such host"), result.stdout)
        XCTAssertFalse(result.stdout.contains("retrying"), result.stdout)
        // A proxy named by a host that does not exist, the same.
        let proxied = try await haul(
            in: dir.subdirectory("work"), ["--proxy", "http://\(host):3128", nginx.url("proxied.bin")])
        XCTAssertEqual(proxied.status, 1, proxied.stdout + proxied.stderr)
        XCTAssertTrue(
            proxied.stdout.contains("cannot connect to the proxy \(host):3128: no such host"), proxied.stdout)
        XCTAssertFalse(proxied.stdout.contains("retrying"), proxied.stdout)
    }
}
