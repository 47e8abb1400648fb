import Foundation
import HaulTestSupport
import XCTest

/// Background transfers: the daemon, handing over from the TUI, re-attaching, commands
/// reaching the owner of the state, recovery after `kill -9`, the socket's permissions and
/// the completion hooks. Real binary, real nginx, real tmux.
final class BackgroundTests: CLITestCase {
    var nginx: NginxServer!
    var www: String!
    var sessions: [TmuxSession] = []
    var children: [ChildProcess] = []

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "400k", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        for child in children { await child.terminate() }
        if let pid = lockHolder(), pid != getpid() { kill(pid, SIGKILL) } // a daemon the test left behind
        await nginx?.stop()
        try await super.tearDown()
    }

    func openTUI(name: String = "tui", env: [String: String] = [:]) async throws -> TmuxSession {
        let script = "'\(HaulBinary.path)'; echo \"EXIT=$?\"; sleep 600"
        let session = try await TmuxSession(
            command: script, width: 110, height: 30,
            environment: environment(["TERM": "xterm-256color"].merging(env) { $1 }),
            workDirectory: dir.subdirectory(name)
        )
        sessions.append(session)
        try await session.waitFor { $0.contains("q Quit") }
        return session
    }

    /// `haul ARGUMENTS` started in `folder`, its output in `NAME.log` (see ``output(_:)``).
    func haulCommand(_ name: String, in folder: String, _ arguments: [String]) throws -> ChildProcess {
        let log = dir.path + "/\(name).log"
        let child = try ChildProcess(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder, HaulBinary.path] + arguments,
            environment: environment(), stdout: log, stderr: log)
        children.append(child)
        return child
    }

    func output(_ name: String) -> String {
        (try? String(contentsOfFile: dir.path + "/\(name).log", encoding: .utf8)) ?? ""
    }

    /// The pid in the lock file when that process is alive.
    func lockHolder() -> Int32? {
        guard let text = try? String(contentsOfFile: statePath + ".lock", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0, kill(pid, 0) == 0
        else { return nil }
        return pid
    }

    func commandLine(_ pid: Int32) -> String {
        let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
    }

    /// A daemon downloading `long.bin` (`size` bytes) at the slow rate, once its `.part` exists.
    func daemonDownloadingLongFile(size: Int) async throws -> ChildProcess {
        try TestFiles.random(www + "/long.bin", size: size)
        _ = try await haul("add", "-x", "1", nginx.url("slow/long.bin"))
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        children.append(daemon)
        try await waitUntil { (self.fileSize(self.downloads + "/long.bin.part") ?? 0) > 0 }
        return daemon
    }

    func row(_ screen: String, _ name: String) -> String {
        String(screen.split(separator: "\n").first { $0.contains(name) } ?? "")
    }

    func testQuittingToTheBackgroundKeepsDownloadingAndTheNextTUIShowsWhatHappened() async throws {
        try TestFiles.random(www + "/one.bin", size: 1_600_000)
        try TestFiles.random(www + "/two.bin", size: 1_200_000)
        _ = try await haul("add", "-x", "1", nginx.url("slow/one.bin"), nginx.url("slow/two.bin"))
        let tui = try await openTUI()
        try await tui.waitFor {
            (TUITests.percent(in: $0, row: "one.bin") ?? 0) > 0 && (TUITests.percent(in: $0, row: "two.bin") ?? 0) > 0
        }
        let tuiPID = try XCTUnwrap(lockHolder())

        try await tui.send("q")
        try await tui.waitFor {
            $0.contains(
                "2 downloads are running. Keep downloading in the background? [y]es · [n]o, pause · Esc "
                    + "stays")
        }
        try await tui.send("y")
        let after = try await tui.waitFor { $0.contains("EXIT=") }
        XCTAssertTrue(after.contains("EXIT=0"), after)
        XCTAssertTrue(after.contains("2 download(s) continue in the background (haul daemon, pid"), after)

        // No TUI process any more; a daemon owns the state, and the files keep growing.
        XCTAssertNotEqual(kill(tuiPID, 0), 0, "the TUI process is gone")
        let daemon = try XCTUnwrap(lockHolder())
        XCTAssertNotEqual(daemon, tuiPID)
        XCTAssertTrue(commandLine(daemon).contains("daemon"), commandLine(daemon))
        let grown = fileSize(downloads + "/one.bin.part") ?? 0
        try await waitUntil(timeout: 10) { (self.fileSize(self.downloads + "/one.bin.part") ?? Int64.max) > grown }

        // They finish in the background; the daemon then exits by itself.
        try await waitUntil(timeout: 30) {
            self.sameFile(self.downloads + "/one.bin", self.www + "/one.bin")
                && self.sameFile(self.downloads + "/two.bin", self.www + "/two.bin")
        }
        try await waitUntil(timeout: 10) { kill(daemon, 0) != 0 }
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloads + "/one.bin.part"))

        // A new TUI shows what happened while it was away, once.
        let again = try await openTUI(name: "tui2")
        let summary = try await again.waitFor { $0.contains("While you were away") }
        XCTAssertTrue(summary.contains("2 finished"), summary)
        XCTAssertTrue(row(summary, "finished  one.bin").contains("one.bin"), summary)
        try await again.send("x")
        try await again.waitFor { !$0.contains("While you were away") }
        try await again.send("q")
        try await again.waitFor { $0.contains("EXIT=0") }
        let third = try await openTUI(name: "tui3")
        try await Task.sleep(for: .milliseconds(300))
        let screen = try await third.capture()
        XCTAssertFalse(screen.contains("While you were away"), "the report is shown once")
    }

    func testATUIAttachedToADaemonLeavesItRunningOrPausesIt() async throws {
        let daemon = try await daemonDownloadingLongFile(size: 8_000_000)

        let tui = try await openTUI()
        let first = try await tui.waitFor { self.row($0, "long.bin").contains("downloading") }
        XCTAssertFalse(first.contains("While you were away"), "nothing happened yet")
        XCTAssertEqual(lockHolder(), daemon.pid, "the TUI attached; the daemon still owns the state")
        try await tui.send("q")
        try await tui.waitFor { $0.contains("Keep downloading in the background?") }
        try await tui.send("y")
        let left = try await tui.waitFor { $0.contains("EXIT=") }
        XCTAssertTrue(left.contains("1 download(s) continue in the background (haul daemon, pid \(daemon.pid))"), left)
        let grown = fileSize(downloads + "/long.bin.part") ?? 0
        try await waitUntil(timeout: 10) { (self.fileSize(self.downloads + "/long.bin.part") ?? 0) > grown }

        let again = try await openTUI(name: "tui2")
        try await again.waitFor { self.row($0, "long.bin").contains("downloading") }
        try await again.send("q")
        try await again.waitFor { $0.contains("Keep downloading in the background?") }
        try await again.send("n")
        try await again.waitFor { $0.contains("EXIT=0") }
        let list = try await listJSON()
        XCTAssertEqual(list.first?["state"] as? String, "paused", "n paused it in the daemon")
        XCTAssertEqual(lockHolder(), daemon.pid, "the daemon itself goes on")
    }

    func testATUIWhoseDaemonIsKilledTakesTheDownloadsOver() async throws {
        let daemon = try await daemonDownloadingLongFile(size: 2_000_000)
        let tui = try await openTUI()
        try await tui.waitFor { self.row($0, "long.bin").contains("downloading") }

        daemon.signal(SIGKILL)
        _ = await daemon.wait(timeout: 10)
        let told = try await tui.waitFor { $0.contains("this window carries on") }
        XCTAssertTrue(told.contains("(pid \(daemon.pid)) stopped"), told)
        try await waitUntil(timeout: 10) { self.lockHolder().map { $0 != daemon.pid } ?? false }
        try await tui.waitFor(timeout: 30) { self.row($0, "long.bin").contains("done") }
        XCTAssertTrue(sameFile(downloads + "/long.bin", www + "/long.bin"))
        let resumed = nginx.accessLog().filter { $0.uri.hasSuffix("/long.bin") }
        XCTAssertEqual(resumed.last?.status, 206, "the UI went on from the daemon's .part")
        try await tui.send("q")
        try await tui.waitFor { $0.contains("EXIT=0") }
    }

    /// `haul URL` and `haul run` that follow a daemon: Ctrl-C stops the following and the daemon
    /// goes on; a daemon that dies hands the downloads back, and the command goes on with them
    /// from their `.part`s and returns when they are done, as the UI does.
    func testACommandFollowingADaemonGoesOnWhenTheDaemonDies() async throws {
        // Long enough to be running still when the second daemon is killed.
        let daemon = try await daemonDownloadingLongFile(size: 3_000_000)
        let cwd = dir.subdirectory("work")
        try TestFiles.random(www + "/other.bin", size: 1_000_000)
        func follower(_ name: String, _ arguments: [String]) throws -> ChildProcess {
            try haulCommand(name, in: cwd, arguments)
        }

        // Ctrl-C: only the following stops.
        let interrupted = try follower("interrupted", ["-x", "1", nginx.url("slow/other.bin")])
        try await waitUntil { (self.fileSize(cwd + "/other.bin.part") ?? 0) > 100_000 }
        interrupted.signal(SIGINT)
        let interruptedStatus = await interrupted.wait(timeout: 10)
        let said = output("interrupted")
        XCTAssertEqual(interruptedStatus, 130, said)
        XCTAssertTrue(said.contains("stopped following; haul (pid \(daemon.pid), daemon) goes on"), said)
        XCTAssertEqual(lockHolder(), daemon.pid)

        // The daemon dies: `haul URL` takes the state and finishes its file.
        let going = try follower("going", ["-x", "1", nginx.url("slow/other.bin")])
        try await waitUntil { output("going").contains("took the downloads") }
        daemon.signal(SIGKILL)
        _ = await daemon.wait(timeout: 10)
        let status = await going.wait(timeout: 60)
        let went = output("going")
        XCTAssertEqual(status, 0, went)
        XCTAssertTrue(
            went.contains("haul (pid \(daemon.pid), daemon) stopped; this command goes on with the downloads"), went)
        XCTAssertTrue(went.contains("done: 1 finished"), went)
        XCTAssertTrue(sameFile(www + "/other.bin", cwd + "/other.bin"))
        let other = nginx.accessLog().filter { $0.uri == "/slow/other.bin" }
        XCTAssertEqual(other.last?.status, 206, "it went on from the daemon's .part")

        // And `haul run` following the next daemon goes on with the queue.
        let next = try spawnHaul(["daemon"], log: dir.path + "/daemon2.log")
        children.append(next)
        try await waitUntil { self.lockHolder() == next.pid }
        let run = try follower("run", ["run"])
        try await waitUntil { output("run").contains("is running the downloads") }
        next.signal(SIGKILL)
        _ = await next.wait(timeout: 10)
        let runStatus = await run.wait(timeout: 60)
        let ran = output("run")
        XCTAssertEqual(runStatus, 0, ran)
        XCTAssertTrue(
            ran.contains("haul (pid \(next.pid), daemon) stopped; this command goes on with the downloads"), ran)
        XCTAssertTrue(sameFile(www + "/long.bin", downloads + "/long.bin"))
    }

    func testWhatIsAddedOrFollowedWhileAHaulURLRunsRunsBesideItAndGoesOnAfterIt() async throws {
        // 6 s at the slow rate: the first command is still running while the others start, and
        // the second's own file is still going when the first ends.
        try TestFiles.random(www + "/first.bin", size: 2_400_000)
        try TestFiles.random(www + "/second.bin", size: 3_600_000)
        for name in ["quick.bin", "queued.bin", "later.bin", "resumed.bin"] {
            try TestFiles.random(www + "/" + name, size: 50_000)
        }
        let cwd = dir.subdirectory("work")
        func command(_ name: String, _ arguments: [String]) throws -> ChildProcess {
            try haulCommand(name, in: cwd, arguments)
        }
        func fetched(_ name: String) -> Bool { FileManager.default.fileExists(atPath: cwd + "/" + name) }
        let queued = try await haul("add", "-d", cwd, nginx.url("queued.bin"))
        XCTAssertEqual(queued.status, 0, queued.stderr)
        let first = try command("first", ["-x", "1", nginx.url("slow/first.bin")])
        try await waitUntil { self.lockHolder() == first.pid }

        // A second `haul URL` follows the first, whose engine runs its files now, not after its own.
        let second = try command("second", ["-x", "1", nginx.url("quick.bin"), nginx.url("slow/second.bin")])
        try await waitUntil { fetched("quick.bin") }
        XCTAssertTrue(first.isRunning, "quick.bin was fetched while the first command ran")
        // So is what `haul add` adds, with a word on when it stops.
        let later = try await haul("add", "-d", cwd, nginx.url("later.bin"))
        XCTAssertEqual(later.status, 0, later.stderr)
        XCTAssertTrue(
            later.stderr.contains(
                "haul (pid \(first.pid), haul URL) fetches them until its own downloads are done; 'haul run' goes on"),
            later.stderr)
        try await waitUntil { fetched("later.bin") }
        XCTAssertTrue(first.isRunning, "later.bin was fetched while the first command ran")
        // And what `haul resume` resumes.
        let paused = try await haul("add", "--paused", "-d", cwd, nginx.url("resumed.bin"))
        XCTAssertFalse(paused.stderr.contains("fetches them"), "a paused add runs nowhere: \(paused.stderr)")
        let resumedID = try XCTUnwrap(paused.stdout.split(separator: " ").first.map(String.init))
        let resumed = try await haul("resume", resumedID)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("fetches them until its own downloads are done"), resumed.stderr)
        try await waitUntil { fetched("resumed.bin") }
        XCTAssertTrue(first.isRunning, "resumed.bin was fetched while the first command ran")
        // And `haul run` has it run the queue it had left.
        XCTAssertFalse(fetched("queued.bin"))
        let run = try command("run", ["run"])
        try await waitUntil { fetched("queued.bin") }
        XCTAssertTrue(first.isRunning, "queued.bin was fetched while the first command ran")
        XCTAssertGreaterThan(fileSize(cwd + "/second.bin.part") ?? 0, 0)

        // The first ends with its own file; the followers go on with theirs from the `.part`.
        let firstStatus = await first.wait(timeout: 30)
        XCTAssertEqual(firstStatus, 0, output("first"))
        XCTAssertTrue(output("first").contains("done: 1 finished"), output("first"))
        let secondStatus = await second.wait(timeout: 60)
        let said = output("second")
        XCTAssertEqual(secondStatus, 0, said)
        XCTAssertTrue(said.contains("haul (pid \(first.pid), haul URL) stopped; this command goes on"), said)
        XCTAssertTrue(said.contains("done: 2 finished"), said)
        XCTAssertFalse(said.contains("already here"), "what it fetched itself is not news after the hand-over")
        let runStatus = await run.wait(timeout: 60)
        XCTAssertEqual(runStatus, 0, output("run"))
        for name in ["first.bin", "second.bin", "quick.bin", "queued.bin", "later.bin", "resumed.bin"] {
            XCTAssertTrue(sameFile(www + "/" + name, cwd + "/" + name), name)
        }
        let secondRequests = nginx.accessLog().filter { $0.uri == "/slow/second.bin" }
        XCTAssertEqual(secondRequests.last?.status, 206, "it went on from the first command's .part")
    }

    func testAUIOpenBesideAHaulURLRunsWhatItAdds() async throws {
        try TestFiles.random(www + "/first.bin", size: 1_600_000)
        try TestFiles.random(www + "/quick.bin", size: 50_000)
        let first = try haulCommand("first", in: dir.subdirectory("work"), ["-x", "1", nginx.url("slow/first.bin")])
        try await waitUntil { self.lockHolder() == first.pid }
        let tui = try await openTUI()
        try await tui.waitFor { $0.contains("first.bin") }
        try await tui.send("a")
        try await tui.waitFor { $0.contains("Add a download") }
        try await tui.send(nginx.url("quick.bin"), literal: true)
        try await tui.send("Enter")
        try await tui.waitFor(timeout: 10) { self.row($0, "quick.bin").contains("done") }
        XCTAssertTrue(first.isRunning, "quick.bin was fetched while the first command ran")
        XCTAssertTrue(sameFile(www + "/quick.bin", downloads + "/quick.bin"))
        let status = await first.wait(timeout: 30)
        XCTAssertEqual(status, 0, output("first"))
    }

    func testAnAddFromAnotherShellAppearsInAnOpenTUIWithinASecond() async throws {
        try TestFiles.random(www + "/late.bin", size: 100_000)
        let tui = try await openTUI()
        try await tui.waitFor { $0.contains("No downloads yet") }
        let added = try await haul("add", nginx.url("late.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        try await tui.waitFor(timeout: 1) { $0.contains("late.bin") }
        try await tui.waitFor(timeout: 10) { self.row($0, "late.bin").contains("done") }
        XCTAssertTrue(sameFile(downloads + "/late.bin", www + "/late.bin"))
        // Other commands reach the TUI's engine too.
        let paused = try await haul("pause", "--all")
        XCTAssertEqual(paused.status, 0, paused.stderr)
        let metered = try await haul("metered", "on")
        XCTAssertEqual(metered.status, 0, metered.stderr)
        try await tui.waitFor(timeout: 1) { $0.contains("metered: on") }
        try await tui.send("q")
        try await tui.waitFor { $0.contains("EXIT=0") }
    }

    func testADaemonKilledWithSIGKILLIsResumedByteIdenticalByTheNextHaul() async throws {
        try TestFiles.random(www + "/a.bin", size: 1_500_000)
        try TestFiles.random(www + "/b.bin", size: 1_000_000)
        _ = try await haul("add", "-x", "1", nginx.url("slow/a.bin"), nginx.url("slow/b.bin"))
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        children.append(daemon)
        try await waitUntil {
            (self.fileSize(self.downloads + "/a.bin.part") ?? 0) > 100_000
                && (self.fileSize(self.downloads + "/b.bin.part") ?? 0) > 100_000
        }
        let list = try await haul("ls")
        XCTAssertTrue(list.stdout.contains("downloading"), "ls asks the daemon: \(list.stdout)")
        let second = try await haul("daemon")
        XCTAssertEqual(second.status, 3)
        XCTAssertTrue(
            second.stderr.contains("haul (pid \(daemon.pid), daemon) already runs the downloads"), second.stderr)

        daemon.signal(SIGKILL)
        _ = await daemon.wait(timeout: 10)
        let atKill = fileSize(downloads + "/a.bin.part") ?? 0
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(sameFile(downloads + "/a.bin", www + "/a.bin"))
        XCTAssertTrue(sameFile(downloads + "/b.bin", www + "/b.bin"))
        let resumed = nginx.accessLog().filter { $0.uri.hasSuffix("/a.bin") }
        XCTAssertEqual(resumed.last?.status, 206, "resumed by range, not started over")
        let from = Int64(resumed.last?.range?.dropFirst("bytes=".count).dropLast() ?? "") ?? -1
        XCTAssertGreaterThanOrEqual(from, atKill - 300_000, "from about where the daemon was killed")
        XCTAssertGreaterThan(from, 0)
        XCTAssertTrue(run.stdout.contains("done: 2 finished"), run.stdout)
        // The next run counts what it did, not the files finished before it.
        try TestFiles.random(www + "/c.bin", size: 10_000)
        _ = try await haul("add", nginx.url("c.bin"))
        let next = try await haul("run")
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.hasSuffix("done: 1 finished\n"), next.stdout)
    }

    func testDaemonStopKeepsEveryByte() async throws {
        try TestFiles.random(www + "/a.bin", size: 1_500_000)
        _ = try await haul("add", "-x", "1", nginx.url("slow/a.bin"))
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        children.append(daemon)
        try await waitUntil { (self.fileSize(self.downloads + "/a.bin.part") ?? 0) > 0 }
        let stop = try await haul("daemon", "--stop")
        XCTAssertEqual(stop.status, 0, stop.stderr)
        XCTAssertTrue(stop.stdout.contains("stopped haul daemon (pid \(daemon.pid))"), stop.stdout)
        let status = await daemon.wait(timeout: 10)
        XCTAssertEqual(status, 0)
        let list = try await listJSON()
        XCTAssertEqual(list.first?["state"] as? String, "waiting")
        XCTAssertEqual(
            list.first?["receivedBytes"] as? Int64 ?? Int64(list.first?["receivedBytes"] as? Int ?? 0),
            fileSize(downloads + "/a.bin.part"))
        let none = try await haul("daemon", "--stop")
        XCTAssertTrue(none.stdout.contains("no haul daemon runs"), none.stdout)
    }

    func testASocketOthersCanReachIsRefused() async throws {
        _ = try await haul("add", "--paused", nginx.url("a.bin"))
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        children.append(daemon)
        let runDirectory = dir.path + "/state/run"
        try await waitUntil {
            ((try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? []).contains {
                $0.hasSuffix(".sock")
            }
        }
        let socket =
            runDirectory + "/"
            + (try FileManager.default.contentsOfDirectory(atPath: runDirectory).first { $0.hasSuffix(".sock") } ?? "")
        var info = stat()
        XCTAssertEqual(lstat(runDirectory, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(lstat(socket, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)

        chmod(runDirectory, 0o755)
        var result = try await haul("ls")
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("other users can reach it (mode 0755); it must be 0700"), result.stderr)
        chmod(runDirectory, 0o700)
        // A socket whose own mode is open (as a service manager makes them) is still private
        // inside a 0700 directory, and used.
        chmod(socket, 0o666)
        result = try await haul("pause", "--all")
        XCTAssertEqual(result.status, 0, result.stderr)
        chmod(socket, 0o600)
        result = try await haul("ls")
        XCTAssertEqual(result.status, 0, result.stderr)

        // Another uid that gets through loosened permissions is refused by the daemon itself.
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
        else { return }
        chmod(dir.path + "/state", 0o711)
        chmod(runDirectory, 0o711)
        chmod(socket, 0o666)
        let foreign = try await ChildProcess.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/curl", "-s", "--http0.9", "--max-time",
                "5", "--unix-socket", socket, "http://haul/",
            ],
            environment: ["PATH": "/usr/bin:/bin"], in: dir.path
        )
        chmod(socket, 0o600)
        chmod(runDirectory, 0o700)
        XCTAssertTrue(
            foreign.stdout.contains("connection refused"), "stdout: \(foreign.stdout) stderr: \(foreign.stderr)")
        XCTAssertFalse(foreign.stdout.contains("hello"), foreign.stdout)
        try await waitUntil(timeout: 5) {
            ((try? String(contentsOfFile: self.dir.path + "/daemon.log", encoding: .utf8)) ?? "").contains(
                "refused a connection from uid 65534")
        }
    }

    func testOnCompleteRunsTheCommandWithThePathAndNoShellAndNotifies() async throws {
        let name = "a $(touch PWNED) b;c.bin"
        try TestFiles.random(www + "/file.bin", size: 50_000)
        let bin = dir.subdirectory("bin")
        let record = dir.path + "/hook.txt"
        let notified = dir.path + "/notify.txt"
        try "#!/bin/sh\nprintf '%s|%s\\n' \"$1\" \"$2\" >> '\(record)'\n".write(
            toFile: bin + "/hook", atomically: true, encoding: .utf8)
        try "#!/bin/sh\nprintf '%s|' \"$@\" >> '\(notified)'\necho >> '\(notified)'\n".write(
            toFile: bin + "/notify-send", atomically: true, encoding: .utf8)
        chmod(bin + "/hook", 0o755)
        chmod(bin + "/notify-send", 0o755)
        _ = try await haul("add", "-o", name, nginx.url("file.bin"))
        let env = ["PATH": bin + ":/usr/bin:/bin"]
        let run = try await haul("run", "--on-complete", "hook 'first arg'", env: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        let path = downloads + "/" + name
        XCTAssertTrue(sameFile(path, www + "/file.bin"))
        try await waitUntil(timeout: 5) { FileManager.default.fileExists(atPath: record) }
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "first arg|\(path)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/PWNED"), "the name never reached a shell")
        // The notification is a process of its own, not ordered with the hook's.
        try await waitUntil(timeout: 5) {
            ((try? String(contentsOfFile: notified, encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        XCTAssertEqual(
            try String(contentsOfFile: notified, encoding: .utf8), "--app-name=haul|Download finished|\(name)|\n")

        let bad = try await haul("run", "--on-complete", "hook 'unfinished")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unfinished quote"), bad.stderr)
    }
}
