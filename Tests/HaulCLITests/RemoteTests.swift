import Foundation
import HaulTestSupport
import XCTest

/// haul's UI and commands on engines it does not own, reached by `--connect`: Debian's aria2c,
/// a haul daemon serving RPC, and a script that answers oddly. The files come from nginx.
final class RemoteTests: CLITestCase {
    var nginx: NginxServer!
    var www: String!
    let secret = "remote-secret"
    var children: [ChildProcess] = []
    var sessions: [TmuxSession] = []

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, workDirectory: dir.subdirectory("nginx"))
        try TestFiles.random(www + "/big.bin", size: 6_000_000)
    }

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        for child in children { await child.terminate() }
        await nginx?.stop()
        try await super.tearDown()
    }

    /// aria2c with RPC on a free port, downloading into `folder`.
    func startAria2c(folder: String, port chosen: Int? = nil) async throws -> Int {
        let aria2c = try XCTUnwrap(
            ["/usr/bin/aria2c", "/usr/local/bin/aria2c"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "aria2c is not installed (apt-get install aria2)")
        let port = chosen ?? FreePort.find()
        let server = try ChildProcess(
            aria2c,
            [
                "--enable-rpc", "--rpc-listen-port", String(port), "--rpc-secret", secret, "--dir", folder,
                "--quiet", "--no-conf",
            ], environment: ["HOME": home], stdout: dir.path + "/aria2c.log", stderr: dir.path + "/aria2c.log")
        children.append(server)
        try await waitUntil { FreePort.isListening(port) }
        return port
    }

    /// The UI in tmux on the engine at `address`.
    func openRemoteTUI(_ address: String, name: String = "tui") async throws -> TmuxSession {
        let session = try await TmuxSession(
            command: "'\(HaulBinary.path)' --connect '\(address)' --secret \(secret); echo \"EXIT=$?\"; sleep 600",
            width: 120, height: 30, environment: environment(["TERM": "xterm-256color"]),
            workDirectory: dir.subdirectory(name))
        sessions.append(session)
        return session
    }

    /// A download's status as the engine itself reports it (curl, not haul).
    func engineStatus(port: Int, gid: String) async throws -> String? {
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellStatus","params":["token:\#(secret)","\#(gid)",["status"]]}"#
        let reply = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"], environment: [:], in: dir.path,
            timeout: 10)
        let json = try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any]
        return (json?["result"] as? [String: Any])?["status"] as? String
    }

    static func row(_ screen: String, _ name: String) -> String {
        screen.split(separator: "\n").first { $0.contains(name) }.map(String.init) ?? ""
    }

    /// The steps both engines are checked with: add, progress in the UI, pause and resume with
    /// `p`, the file whole, remove. Answers the download's id.
    func driveThroughTheUI(port: Int, folder: String) async throws -> String {
        let address = "ws://127.0.0.1:\(port)/jsonrpc"
        let empty = try await haul("ls", "--connect", address, "--secret", secret)
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stdout.contains("no downloads"), empty.stdout)
        // Its own limit keeps it running while the UI is looked at; lifted to finish.
        let added = try await haul(
            "add", "--connect", address, "--secret", secret, "-d", folder, "--limit", "400K", nginx.url("big.bin"))
        XCTAssertEqual(added.status, 0, added.stderr)
        let id = try XCTUnwrap(added.stdout.split(separator: " ").first.map(String.init), added.stdout)
        let gid = id.count == 16 ? id : String(repeating: "0", count: 16 - id.count) + id

        let tui = try await openRemoteTUI(address)
        let first = try await tui.waitFor { Self.row($0, "big.bin").contains("%") }
        try await tui.waitFor { Self.row($0, "big.bin") != Self.row(first, "big.bin") && $0.contains("downloading") }
        try await tui.send("p")
        try await tui.waitFor { Self.row($0, "big.bin").contains("paused") }
        let paused = try await engineStatus(port: port, gid: gid)
        XCTAssertEqual(paused, "paused", "the engine itself says so")
        try await tui.send("p")
        try await tui.waitFor { Self.row($0, "big.bin").contains("downloading") }
        let lifted = try await haul("limit", "none", id, "--connect", address, "--secret", secret)
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        try await tui.waitFor {
            Self.row($0, "big.bin").contains("done") || Self.row($0, "big.bin").contains("finished")
        }
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: folder + "/big.bin", andPath: www + "/big.bin"))
        // `o` cannot open a file on another machine: it says where it is.
        try await tui.send("o")
        try await tui.waitFor { $0.contains("big.bin is on 127.0.0.1:\(port), not this machine") }
        try await tui.send("d")
        try await tui.waitFor { $0.contains("Remove") || $0.contains("remove") }
        try await tui.send("y")
        try await tui.waitFor { !$0.contains("big.bin") }
        let after = try await haul("ls", "--connect", address, "--secret", secret)
        XCTAssertFalse(after.stdout.contains("big.bin"), after.stdout)
        try await tui.send("q")
        try await tui.waitFor { $0.contains("EXIT=0") }
        return id
    }

    /// `add -i` on another engine carries each entry's aria2 options (`dir=` a folder on that
    /// machine, `out=` with folders) as aria2c's own input files do; a relative `dir=` is refused
    /// with its line. Against Debian's aria2c.
    func testAListsOwnOptionsReachTheEngine() async throws {
        let folder = dir.subdirectory("aria2-list")
        let port = try await startAria2c(folder: folder)
        try TestFiles.random(www + "/small.bin", size: 40_000)
        let list = dir.path + "/remote-list.txt"
        try """
        \(nginx.url("small.bin"))
          dir=\(folder)/first
          out=one.bin
        \(nginx.url("big.bin"))
          out=nested/two.bin
        """.write(toFile: list, atomically: true, encoding: .utf8)
        let added = try await haul("add", "--connect", "127.0.0.1:\(port)", "--secret", secret, "-i", list)
        XCTAssertEqual(added.status, 0, added.stderr)
        try await waitUntil(timeout: 30) {
            self.fileSize(folder + "/first/one.bin") == 40_000 && self.fileSize(folder + "/nested/two.bin") == 6_000_000
        }
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: folder + "/first/one.bin", andPath: www + "/small.bin"))
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: folder + "/nested/two.bin", andPath: www + "/big.bin"))

        try "\(nginx.url("small.bin"))\n  dir=relative\n".write(toFile: list, atomically: true, encoding: .utf8)
        let relative = try await haul("add", "--connect", "127.0.0.1:\(port)", "--secret", secret, "-i", list)
        XCTAssertEqual(relative.status, 2, relative.stderr)
        XCTAssertTrue(relative.stderr.contains("line 2, dir=: with --connect, dir= names a folder"), relative.stderr)
    }

    func testTheUIAndCommandsDriveARealAria2c() async throws {
        let folder = dir.subdirectory("aria2-downloads")
        let port = try await startAria2c(folder: folder)
        let wrong = try await haul("ls", "--connect", "127.0.0.1:\(port)", "--secret", "not-it")
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.stderr.contains("the engine refused the secret"), wrong.stderr)
        let id = try await driveThroughTheUI(port: port, folder: folder)
        XCTAssertEqual(id.count, 16, "aria2's GIDs are shown whole")

        // What only haul has is refused in a sentence.
        let metered = try await haul("metered", "on", "--connect", "127.0.0.1:\(port)", "--secret", secret)
        XCTAssertNotEqual(metered.status, 0)
        XCTAssertTrue(metered.stderr.contains("metered mode is not supported by aria2"), metered.stderr)
        let tui = try await openRemoteTUI("127.0.0.1:\(port)", name: "tui2")
        try await tui.waitFor { $0.contains("aria2 ") && $0.contains("@ 127.0.0.1:\(port)") }
        try await tui.send("m")
        try await tui.waitFor { $0.contains("metered mode is not supported by aria2") }
        // The add dialog: no folder is the engine's own; the name is kept.
        try await tui.send("a")
        try await tui.waitFor { $0.contains("URL:") }
        try await tui.send(nginx.url("big.bin"), literal: true)
        try await tui.send("Tab")
        try await tui.send("Tab")
        try await tui.send("from-ui.bin", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor { Self.row($0, "from-ui.bin").contains("done") }
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: folder + "/from-ui.bin", andPath: www + "/big.bin"))
        // The engine goes away and comes back: the header says so, and the UI finds it again.
        for child in children { await child.terminate() }
        try await tui.waitFor { $0.split(separator: "\n")[0].contains("reconnecting…") }
        _ = try await startAria2c(folder: folder, port: port)
        try await tui.waitFor { !$0.split(separator: "\n")[0].contains("reconnecting") }
        try await tui.waitFor { $0.contains("connected to 127.0.0.1:\(port) again") }
    }

    func testTheUIAndCommandsDriveAHaulDaemonServingRPCWithItsMeteredMode() async throws {
        let port = FreePort.find()
        let folder = dir.subdirectory("served")
        let on = try await haul("rpc", "on", "--port", String(port), "--secret", secret, "--allow-dir", folder)
        XCTAssertEqual(on.status, 0, on.stderr)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        children.append(daemon)
        try await waitUntil { FreePort.isListening(port) }
        let id = try await driveThroughTheUI(port: port, folder: folder)
        XCTAssertEqual(id.count, 6, "a haul's own ids")

        // Metered mode, which only haul has, from the UI on the other side.
        _ = try await haul(
            "add", "--connect", "127.0.0.1:\(port)", "--secret", secret, "-d", folder, "--limit", "100K",
            nginx.url("big.bin"), "-o", "held.bin")
        let tui = try await openRemoteTUI("127.0.0.1:\(port)", name: "tui2")
        try await tui.waitFor { $0.contains("haul ") && $0.contains("metered: off") }
        try await tui.send("m")
        try await tui.waitFor { $0.contains("metered: on") && Self.row($0, "held.bin").contains("paused") }
        let local = try await haul("metered")
        XCTAssertTrue(local.stdout.contains("on"), "the daemon's own setting changed: \(local.stdout)")
    }

    func testAnEngineThatAnswersOddlyIsShownAndRecoveredFrom() async throws {
        let port = FreePort.find()
        let mode = dir.path + "/mode"
        try "good".write(toFile: mode, atomically: true, encoding: .utf8)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("RPC/odd_engine.py").path
        let engine = try ChildProcess(
            "/usr/bin/python3", [script, "--port", String(port), "--mode", mode], environment: [:],
            stdout: dir.path + "/odd.log", stderr: dir.path + "/odd.log")
        children.append(engine)
        try await waitUntil { FreePort.isListening(port) }

        let tui = try await openRemoteTUI("http://127.0.0.1:\(port)/jsonrpc")
        // An unknown status waits, keys that are missing are unknown, an item without a GID is
        // left out; a name's escape sequence is not written to the terminal.
        var screen = try await tui.waitFor { $0.contains("aria2 9.9.9") && $0.contains("odd") }
        XCTAssertFalse(screen.contains("\u{1B}"), screen)
        XCTAssertTrue(Self.row(screen, "odd").contains("waiting"), screen)
        try await tui.send("m")
        try await tui.waitFor { $0.contains("metered mode is not supported by aria2") }

        for broken in ["garbage", "cut"] {
            try broken.write(toFile: mode, atomically: true, encoding: .utf8)
            screen = try await tui.waitFor { $0.contains("reconnecting…") }
            try "good".write(toFile: mode, atomically: true, encoding: .utf8)
            screen = try await tui.waitFor { !$0.split(separator: "\n")[0].contains("reconnecting") }
            XCTAssertTrue(screen.contains("odd"), screen)
        }
        // A slow answer: the header says so, and the UI keeps answering keys meanwhile.
        try "slow".write(toFile: mode, atomically: true, encoding: .utf8)
        try await tui.waitFor { $0.split(separator: "\n")[0].contains("slow to answer") }
        try await tui.send("?")
        try await tui.waitFor(timeout: 2) { $0.contains("Keys") }
        try await tui.send("Escape")
        try "good".write(toFile: mode, atomically: true, encoding: .utf8)
        try await tui.waitFor { !$0.split(separator: "\n")[0].contains("slow to answer") }
        // A huge list arrives whole.
        try "huge".write(toFile: mode, atomically: true, encoding: .utf8)
        try await tui.waitFor(timeout: 30) { $0.contains("of 5001 shown") || $0.contains("of 5002 shown") }
        try await tui.send("q")
        try await tui.waitFor { $0.contains("EXIT=0") }
    }

    /// aria2c behind nginx with TLS (as people put an engine on the internet): calls over https
    /// and notifications over wss, trusting the certificate `SSL_CERT_FILE` names, and one
    /// sentence without it.
    func testATLSEngineIsReachedWithTheCertificatesSSLCertFileNames() async throws {
        let folder = dir.subdirectory("aria2-downloads")
        let aria2 = try await startAria2c(folder: folder)
        let certificate = try await TestCertificate.make(in: dir.subdirectory("tls"))
        let front = try await NginxServer(
            root: www, tls: certificate, workDirectory: dir.subdirectory("nginx-tls"),
            serverLines: { _ in
                """
                location /jsonrpc {
                  proxy_pass http://127.0.0.1:\(aria2);
                  proxy_http_version 1.1;
                  proxy_set_header Upgrade $http_upgrade;
                  proxy_set_header Connection "upgrade";
                }
                """
            })
        defer { Task { await front.stop() } }
        let address = "wss://localhost:\(front.port)/jsonrpc"
        let untrusted = try await haul("ls", "--connect", address, "--secret", secret)
        XCTAssertNotEqual(untrusted.status, 0)
        XCTAssertTrue(untrusted.stderr.contains("certificate"), untrusted.stderr)
        let trust = ["SSL_CERT_FILE": certificate.certificatePath]
        let added = try await haul(
            ["add", "--connect", address, "--secret", secret, nginx.url("big.bin")], env: trust)
        XCTAssertEqual(added.status, 0, added.stderr)
        try await waitUntil {
            FileManager.default.contentsEqual(atPath: folder + "/big.bin", andPath: self.www + "/big.bin")
        }
        let session = try await TmuxSession(
            command: "SSL_CERT_FILE='\(certificate.certificatePath)' '\(HaulBinary.path)' --connect '\(address)' "
                + "--secret \(secret); sleep 600",
            width: 120, height: 30, environment: environment(["TERM": "xterm-256color"]),
            workDirectory: dir.subdirectory("tui"))
        sessions.append(session)
        try await session.waitFor { $0.contains("big.bin") && $0.contains("done") }
        try await session.send("q")
        // The notifications' WebSocket went through TLS too: nginx switched protocols for it
        // (and logs it when it closes).
        try await waitUntil {
            ((try? String(contentsOfFile: front.directory + "/access.log", encoding: .utf8)) ?? "").contains("|101|")
        }
    }

    func testSavedRemotesAreKeptPrivateAndNamedByConnect() async throws {
        let folder = dir.subdirectory("aria2-downloads")
        let port = try await startAria2c(folder: folder)
        let add = try await haul("remote", "add", "box", "ws://127.0.0.1:\(port)/jsonrpc", "--secret", secret)
        XCTAssertEqual(add.status, 0, add.stderr)
        let file = home + "/.config/haul/remotes.json"
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let list = try await haul("remote", "ls")
        XCTAssertTrue(list.stdout.contains("box") && list.stdout.contains("secret saved"), list.stdout)
        XCTAssertFalse(list.stdout.contains(secret), "the secret is not shown")
        let ls = try await haul("ls", "--connect", "box")
        XCTAssertEqual(ls.status, 0, ls.stderr)
        let unknown = try await haul("ls", "--connect", "nas")
        XCTAssertTrue(unknown.stderr.contains("no saved remote is called nas"), unknown.stderr)
        let clear = try await haul("ls", "--connect", "ws://192.0.2.1:1/jsonrpc", "--secret", "x", timeout: 30)
        XCTAssertTrue(clear.stderr.contains("travels in clear text"), clear.stderr)
        let removed = try await haul("remote", "rm", "box")
        XCTAssertEqual(removed.status, 0, removed.stderr)
    }
}
