import Foundation
import HaulTestSupport
import XCTest

/// The aria2-compatible JSON-RPC endpoint, driven by clients nobody here wrote: aria2p from
/// PyPI, a raw protocol script that passes against Debian's aria2c as well, curl, and an open
/// TUI in tmux. The real binary serves; nginx serves the files.
final class RPCTests: CLITestCase {
    var nginx: NginxServer!
    var www: String!
    var port = 0
    let secret = "test-secret"
    var children: [ChildProcess] = []
    var sessions: [TmuxSession] = []

    /// The Python with aria2p and websockets that `make test` installs (.build-python).
    static let python = RPCClients.bin("python3")
    static let aria2p = RPCClients.bin("aria2p")
    static let protocolScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("RPC/aria2_protocol.py").path

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "200k", workDirectory: dir.subdirectory("nginx"))
        try TestFiles.random(www + "/fast.bin", size: 300_000)
        try TestFiles.random(www + "/slow.bin", size: 8_000_000)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <file name="meta-one.bin"><url>\(nginx.url("fast.bin?one"))</url></file>
          <file name="meta-two.bin"><url>\(nginx.url("fast.bin?two"))</url></file>
        </metalink>
        """.write(toFile: www + "/files.meta4", atomically: true, encoding: .utf8)
        port = FreePort.find()
        let on = try await haul("rpc", "on", "--port", String(port), "--secret", secret)
        XCTAssertEqual(on.status, 0, on.stderr)
        XCTAssertTrue(on.stdout.contains("rpc: on, 127.0.0.1:\(port)"), on.stdout)
    }

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        for child in children { await child.terminate() }
        await nginx?.stop()
        try await super.tearDown()
    }

    /// `haul daemon`, once it answers on the RPC port.
    @discardableResult
    func startDaemon() async throws -> ChildProcess {
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        children.append(daemon)
        try await waitUntil { FreePort.isListening(self.port) }
        return daemon
    }

    func run(_ executable: String, _ arguments: [String], timeout: Double = 120) async throws -> CommandResult {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        return try await ChildProcess.run(executable, arguments, environment: env, in: dir.path, timeout: timeout)
    }

    func aria2p(_ arguments: String...) async throws -> CommandResult {
        try await run(Self.aria2p, ["--port", String(port), "--secret", secret] + arguments, timeout: 30)
    }

    /// The GID in aria2p's "Created download GID".
    func added(_ result: CommandResult) throws -> String {
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("Created download") })
        return String(try XCTUnwrap(line.split(separator: " ").last))
    }

    /// aria2p's `show` line for `gid`, when it lists one.
    func shown(_ gid: String) async throws -> String? {
        try await aria2p("show").stdout.split(separator: "\n").first { $0.hasPrefix(gid) }.map(String.init)
    }

    func waitForShown(_ gid: String, _ condition: @escaping (String?) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if condition(try await shown(gid)) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        let last = try await shown(gid)
        XCTFail("aria2p never showed what was waited for: \(String(describing: last))")
    }

    func testAria2pAddsShowsPausesResumesRemovesAndHearsCompletion() async throws {
        try await startDaemon()
        let heard = dir.path + "/completed.txt"
        let callbacks = dir.path + "/callbacks.py"
        try """
        def on_download_complete(api, gid):
            with open("\(heard)", "a") as f:
                f.write(gid + "\\n")
        """.write(toFile: callbacks, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        let listener = try ChildProcess(
            Self.aria2p,
            ["--port", String(port), "--secret", secret, "listen", "-c", callbacks, "-t", "1", "complete"],
            environment: env, stdout: dir.path + "/listen.log", stderr: dir.path + "/listen.log")
        children.append(listener)
        try await Task.sleep(for: .milliseconds(500))

        let fast = try added(try await aria2p("add", nginx.url("fast.bin")))
        try await waitUntil { ((try? String(contentsOfFile: heard, encoding: .utf8)) ?? "").contains(fast) }
        XCTAssertEqual(
            FileManager.default.contents(atPath: downloads + "/fast.bin"),
            FileManager.default.contents(atPath: www + "/fast.bin"))
        try await waitForShown(fast) { $0?.contains("complete") == true }

        // Long enough at 200 KB/s a connection on eight connections (25 s) that aria2p, slow to
        // start on a busy machine, can pause, resume and remove it before it ends.
        try TestFiles.random(www + "/slower.bin", size: 40_000_000)
        let slow = try added(try await aria2p("add", nginx.url("slow/slower.bin")))
        try await waitForShown(slow) { $0?.contains("active") == true }
        let paused = try await aria2p("pause", slow)
        XCTAssertEqual(paused.status, 0, paused.stderr)
        try await waitForShown(slow) { $0?.contains("paused") == true }
        let resumed = try await aria2p("resume", slow)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        try await waitForShown(slow) { $0?.contains("active") == true }
        let removed = try await aria2p("remove", slow)
        XCTAssertEqual(removed.status, 0, removed.stdout + removed.stderr)
        try await waitForShown(slow) { $0 == nil }
        let names = try await listJSON().compactMap { $0["fileName"] as? String }
        XCTAssertEqual(names, ["fast.bin"])
    }

    func testAnswersTheRawProtocolAsAria2Does() async throws {
        try await startDaemon()
        let result = try await run(
            Self.python,
            [
                Self.protocolScript, "--server", "haul", "--port", String(port), "--secret", secret, "--files",
                nginx.url(""), "--slow", nginx.url("slow/"), "--dl", downloads,
            ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    /// The same script against Debian's aria2c: what haul is checked against is aria2's behaviour.
    func testTheRawProtocolChecksHoldForRealAria2c() async throws {
        let aria2c = try XCTUnwrap(
            ["/usr/bin/aria2c", "/usr/local/bin/aria2c"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "aria2c is not installed (apt-get install aria2)")
        let aria2Port = FreePort.find()
        let aria2Downloads = dir.subdirectory("aria2-downloads")
        let server = try ChildProcess(
            aria2c,
            [
                "--enable-rpc", "--rpc-listen-port", String(aria2Port), "--rpc-secret", secret,
                "--rpc-allow-origin-all",
                "--dir", aria2Downloads, "--quiet", "--no-conf",
            ], environment: ["HOME": home], stdout: dir.path + "/aria2c.log", stderr: dir.path + "/aria2c.log")
        children.append(server)
        let result = try await run(
            Self.python,
            [
                Self.protocolScript, "--server", "aria2c", "--port", String(aria2Port), "--secret", secret, "--files",
                nginx.url(""), "--slow", nginx.url("slow/"), "--dl", aria2Downloads,
            ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    /// One call over the endpoint with curl; the reply's `result`.
    func rpc(_ method: String, _ params: String) async throws -> Any {
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":["token:\#(secret)"\#(params.isEmpty ? "" : "," + params)]}"#
        let reply = try await run("/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"])
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any], reply.stdout)
        return try XCTUnwrap(object["result"], reply.stdout)
    }

    /// A page that reached the port must not make haul run a program: hooks are not RPC options.
    func testHooksCannotBeSetOverRPC() async throws {
        try await startDaemon()
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"aria2.changeGlobalOption","params":["token:\#(secret)","#
            + #"{"on-download-complete":"/bin/touch"}]}"#
        let reply = try await run("/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"])
        XCTAssertTrue(reply.stdout.contains("hooks are set with haul hooks"), reply.stdout)
        let hooks = try await haul("hooks")
        XCTAssertTrue(hooks.stdout.contains("on-complete: none"), hooks.stdout)
    }

    func testTenThousandStoppedDownloadsArePagedAsAria2PagesThem() async throws {
        let entries = (0..<10_000).map { i in
            #"{"id":"\#(String(format: "%06x", i))","url":"http://127.0.0.1:9/\#(i).bin","directory":"\#(downloads)","#
                + #""fileName":"f\#(i).bin","state":"finished","receivedBytes":\#(1000 + i),"totalBytes":\#(1000 + i),"#
                + #""queueOrder":\#(i),"addedAt":1700000000,"finishedAt":1700000000}"#
        }
        let settings = #"{"concurrency":3,"meteredMode":"off","rpc":{"port":\#(port),"secret":"\#(secret)"}}"#
        try #"{"version":1,"settings":\#(settings),"downloads":[\#(entries.joined(separator: ","))]}"#
            .write(toFile: statePath, atomically: true, encoding: .utf8)
        try await startDaemon()
        let firstReply = try await rpc("aria2.tellStopped", #"0,1000,["gid","status"]"#)
        let first = try XCTUnwrap(firstReply as? [[String: String]])
        XCTAssertEqual(first.count, 1000)
        XCTAssertEqual(first.first, ["gid": "0000000000000000", "status": "complete"])
        XCTAssertEqual(first.last?["gid"], "00000000000003e7")
        let tailReply = try await rpc("aria2.tellStopped", #"9500,1000,["gid"]"#)
        XCTAssertEqual(try XCTUnwrap(tailReply as? [[String: String]]).count, 500)
        let lastReply = try await rpc("aria2.tellStopped", #"-1,2,["gid","totalLength"]"#)
        XCTAssertEqual(
            try XCTUnwrap(lastReply as? [[String: String]]),
            [
                ["gid": "000000000000270f", "totalLength": "10999"],
                ["gid": "000000000000270e", "totalLength": "10998"],
            ])
        let stat = try await rpc("aria2.getGlobalStat", "")
        XCTAssertEqual(try XCTUnwrap(stat as? [String: String])["numStopped"], "10000")
    }

    func testATakenPortIsOneLineAndHaulRunsOnWithoutRPC() async throws {
        let squatter = try ChildProcess(
            Self.python,
            [
                "-c",
                "import socket,time; s=socket.socket(); s.bind(('127.0.0.1', \(port))); s.listen(); time.sleep(600)",
            ],
            environment: [:], stdout: "/dev/null", stderr: "/dev/null")
        children.append(squatter)
        try await waitUntil { FreePort.isListening(self.port) }
        let log = dir.path + "/daemon.log"
        children.append(try spawnHaul(["daemon"], log: log))
        try await waitUntil {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("RPC is off for now")
        }
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { $0.contains("RPC") }
        XCTAssertEqual(lines.count, 1, text)
        XCTAssertTrue(lines[0].contains("127.0.0.1:\(port) is taken by another program"), text)
        let add = try await haul("add", nginx.url("fast.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        try await waitUntil { FileManager.default.fileExists(atPath: self.downloads + "/fast.bin") }
        let status = try await haul("rpc")
        XCTAssertTrue(status.stdout.contains("not served now"), status.stdout)
    }

    func testADownloadAddedOverRPCAppearsInAnOpenTUIAndMoves() async throws {
        let session = try await TmuxSession(
            command: "'\(HaulBinary.path)'; sleep 600", width: 120, height: 30,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tui"))
        sessions.append(session)
        try await session.waitFor { $0.contains("rpc :\(self.port)") }
        let body = """
            {"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:\(secret)",["\(nginx.url("slow/slow.bin"))"]]}
            """
        let curl = try await run("/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"])
        XCTAssertTrue(curl.stdout.contains("\"result\""), curl.stdout)
        let first = try await session.waitFor { $0.contains("slow.bin") && $0.contains("%") }
        let percent = { (screen: String) in
            screen.split(separator: "\n").first { $0.contains("slow.bin") }.map(String.init) ?? ""
        }
        try await session.waitFor { percent($0) != percent(first) && percent($0).contains("%") }
    }
}

/// Where the test clients live: the virtual environment `make test` fills from PyPI.
enum RPCClients {
    static func bin(_ name: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build-python/bin/\(name)").path
    }
}
