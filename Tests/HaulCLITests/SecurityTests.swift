import Foundation
import HaulLoopback
import HaulTestSupport
import XCTest

/// Secrets stay secret, server text never reaches the terminal raw, and bad input from the
/// user gets one clear line.
final class SecurityTests: CLITestCase {
    var server: FaultServer!
    /// The UIs a test opened in tmux: killed with the test, so no haul outlives it.
    var sessions: [TmuxSession] = []

    override func setUp() async throws {
        try await super.setUp()
        let hostile = "attachment; filename*=UTF-8''%1B%5D0%3BPWNED%07evil%1B%5B2J%1B%5B31mname.txt"
        server = try FaultServer { request, _ in
            if request.path.hasPrefix("/hostile") {
                return [
                    .send(
                        FaultServer.head(200, [("Content-Length", "2"), ("Content-Disposition", hostile)]) + [104, 105])
                ]
            }
            if request.path.hasPrefix("/moved") {
                return [.send(FaultServer.head(302, [("Location", "/file.bin"), ("Content-Length", "0")]))]
            }
            if request.path.hasPrefix("/away"), let port = request.headers["host"]?.split(separator: ":").last {
                return [
                    .send(
                        FaultServer.head(
                            302, [("Location", "http://localhost:\(port)/elsewhere.bin"), ("Content-Length", "0")]))
                ]
            }
            if request.path.hasPrefix("/slow") {
                return [.send(FaultServer.head(200, [("Content-Length", "1000000")])), .sleep(30)]
            }
            return FaultServer.serve([1, 2, 3], for: request)
        }
    }

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        server?.stop()
        try await super.tearDown()
    }

    func testCredentialsInURLsAndHeadersAreRedactedEverywhereButTheStateFile() async throws {
        let url = server.url("file.bin").replacingOccurrences(of: "http://", with: "http://alice:s3cretPW@")
        let add = try await haul(
            "add", url, "--header", "Authorization: Bearer t0kenXYZ", "--header", "Cookie: sid=c00kie")
        XCTAssertEqual(add.status, 0, add.stderr)
        let ls = try await haul("ls")
        let json = try await haul("ls", "--json")
        let run = try await haul("run")
        for (label, text) in [
            ("add", add.stdout + add.stderr), ("ls", ls.stdout), ("ls --json", json.stdout),
            ("run", run.stdout + run.stderr),
        ] {
            for secret in ["s3cretPW", "t0kenXYZ", "c00kie"] {
                XCTAssertFalse(text.contains(secret), "\(label) shows \(secret): \(text)")
            }
        }
        XCTAssertTrue(json.stdout.contains("alice:***@"), json.stdout)
        // The request itself carried them.
        XCTAssertEqual(server.requests.first?.headers["authorization"], "Bearer t0kenXYZ")
        XCTAssertEqual(server.requests.first?.headers["cookie"], "sid=c00kie")

        let tui = try await TmuxSession(
            command: "'\(HaulBinary.path)'; sleep 600", width: 120, height: 30,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tmux")
        )
        sessions.append(tui)
        try await tui.waitFor { $0.contains("file.bin") }
        try await tui.send("Enter")
        let details = try await tui.waitFor { $0.contains("Headers") }
        XCTAssertTrue(details.contains("Authorization: ***, Cookie: ***"), details)
        XCTAssertTrue(details.contains("alice:***@"), details)
        for secret in ["s3cretPW", "t0kenXYZ", "c00kie"] { XCTAssertFalse(details.contains(secret)) }
        await tui.kill()

        let mode = try FileManager.default.attributesOfItem(atPath: statePath)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "the state file holds the secrets, so only the owner may read it")
    }

    func testCredentialsInTheURLAreSentAsBasicAuthAndNotToAnotherHost() async throws {
        let server = server!
        let withCredentials = { (path: String) in
            server.url(path).replacingOccurrences(of: "http://", with: "http://alice:s3cret%40PW@")
        }
        for path in ["moved", "away"] {
            let add = try await haul("add", withCredentials(path))
            XCTAssertEqual(add.status, 0, add.stderr)
        }
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertFalse((run.stdout + run.stderr).contains("s3cret"), run.stdout + run.stderr)
        let basic = "Basic " + Data("alice:s3cret@PW".utf8).base64EncodedString()
        let byPath = Dictionary(
            server.requests.map { ($0.path, $0.headers["authorization"]) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(byPath["/moved"], basic, "the user and (decoded) password of the URL")
        XCTAssertEqual(byPath["/file.bin"], basic, "kept across a redirect on the same host")
        XCTAssertEqual(byPath["/away"], basic)
        XCTAssertEqual(byPath["/elsewhere.bin"], .some(nil), "not handed to the host a redirect points at")
    }

    func testServerEscapeSequencesNeverReachTheTerminal() async throws {
        _ = try await haul("add", server.url("hostile"))
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("evilname.txt"), run.stdout)
        XCTAssertFalse(run.stdout.contains("\u{1B}") || run.stdout.contains("PWNED"), run.stdout.debugDescription)
        let ls = try await haul("ls")
        XCTAssertFalse(ls.stdout.contains("\u{1B}") || ls.stdout.contains("PWNED"))

        let raw = dir.path + "/raw.log"
        let tui = try await TmuxSession(
            command: "'\(HaulBinary.path)'; sleep 600", width: 100, height: 20,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tmux")
        )
        sessions.append(tui)
        _ = try await ChildProcess.run(
            TmuxSession.executable, ["-S", tui.socket, "pipe-pane", "-o", "-t", "0", "cat >> \(raw)"],
            environment: ["PATH": "/usr/bin:/bin"], in: dir.path)
        try await tui.waitFor { $0.contains("evilname.txt") }
        try await tui.send("Enter")
        let screen = try await tui.waitFor { $0.contains("Details") && $0.contains("evilname.txt") }
        XCTAssertFalse(screen.contains("PWNED"))
        try await tui.send("Escape")
        try await Task.sleep(for: .milliseconds(300))
        let stream = try XCTUnwrap(TestFiles.contents(raw))
        XCTAssertGreaterThan(stream.count, 0, "the raw output was captured")
        XCTAssertNil(stream.range(of: Data("PWNED".utf8)), "no byte of the server's OSC sequence reached the terminal")
        XCTAssertNil(stream.range(of: Data("\u{1B}]0;".utf8)))
        await tui.kill() // the deferred kill runs in a Task that a finishing test process may never start
    }

    func testBadDirectoriesAndDuplicateURLs() async throws {
        let file = dir.path + "/plainfile"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        var result = try await haul("add", "-d", file, server.url("a"))
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "haul: cannot create the folder \(file): it is a file\n")

        if getuid() == 0 {
            let readOnly = dir.subdirectory("ro")
            let mount = try await ChildProcess.run(
                "/bin/mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", readOnly], environment: [:], in: dir.path)
            XCTAssertEqual(mount.status, 0, mount.stderr)
            result = try await haul("add", "-d", readOnly, server.url("a"))
            _ = try await ChildProcess.run("/bin/umount", ["-l", readOnly], environment: [:], in: dir.path)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("is not writable"), result.stderr)
        }

        result = try await haul("add", server.url("a"))
        XCTAssertEqual(result.status, 0)
        result = try await haul("add", server.url("a"))
        XCTAssertEqual(result.status, 0, "a duplicate is allowed")
        XCTAssertTrue(result.stderr.contains("is already in the list as"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").filter { !$0.contains("nothing runs") }.count, 1)
        result = try await haul("add", server.url("b"), server.url("b"))
        XCTAssertEqual(result.status, 0, "a URL given twice in one call is added twice")
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 2, result.stdout)
        XCTAssertTrue(result.stderr.contains("is given more than once"), result.stderr)
    }

    func testANewerStateFileIsRefusedAndLeftAlone() async throws {
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        let newer = #"{"version":7,"downloads":[]}"#
        try newer.write(toFile: statePath, atomically: true, encoding: .utf8)
        let result = try await haul("add", server.url("a"))
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("written by a newer haul"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: statePath, encoding: .utf8), newer)
    }
}
