import Foundation
import HaulTestSupport
import XCTest

/// Every door into haul resolves a download the same way: `haul add`, `-i`, the UI's add dialog
/// (tmux), `aria2.addUri` and `aria2.addMetalink` (curl), a Metalink file and `haul URL`, all
/// with a daemon serving RPC. Each gets the folder rule's folder, the per-host header, and netrc's
/// login for the host a person or client named (never for a mirror on another host, nor for
/// URLs a Metalink names).
final class AddDoorsTests: CLITestCase {
    var origin: NginxServer!
    var mirror: NginxServer!
    var www: String!
    var port = 0
    let secret = "door-secret"
    var children: [ChildProcess] = []
    var sessions: [TmuxSession] = []

    override func setUp() async throws {
        try await super.setUp()
        let www = dir.subdirectory("www")
        self.www = www
        try TestFiles.random(www + "/file.bin", size: 1_500_000)
        try "u:{PLAIN}p@ss\n".write(toFile: dir.path + "/htpasswd", atomically: true, encoding: .utf8)
        let lines = """
            location /private/ { alias \(www)/; auth_basic "haul"; auth_basic_user_file \(dir.path)/htpasswd; }
            """
        origin = try await NginxServer(
            root: www, workDirectory: dir.subdirectory("origin"), serverLines: { _ in lines })
        // The mirror is another host (localhost) that asks for the same login: it must get none.
        mirror = try await NginxServer(
            root: www, workDirectory: dir.subdirectory("mirror"), serverLines: { _ in lines })
        try """
        machine 127.0.0.1 login u password p@ss
        machine localhost login u password p@ss
        """.write(toFile: home + "/.netrc", atomically: true, encoding: .utf8)
        chmod(home + "/.netrc", 0o600)
        port = FreePort.find()
        for arguments in [
            ["rules", "add", "*.bin", home + "/Bins"],
            ["hosts", "--for", "127.0.0.1", "--header", "X-Secret: door"],
            ["rpc", "on", "--port", String(port), "--secret", secret],
        ] {
            let result = try await haul(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
    }

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        for child in children { await child.terminate() }
        await origin?.stop()
        await mirror?.stop()
        try await super.tearDown()
    }

    var privateURL: String { origin.url("private/file.bin") }
    var mirrorURL: String { mirror.url("private/file.bin").replacingOccurrences(of: "127.0.0.1", with: "localhost") }

    func rpc(_ method: String, _ params: String) async throws -> Any {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":["token:\#(secret)",\#(params)]}"#
        let reply = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"], environment: [:], in: dir.path,
            timeout: 30)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any], reply.stdout)
        return try XCTUnwrap(object["result"], reply.stdout)
    }

    func metalink(_ url: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <file name="file.bin"><url priority="1">\(url)</url></file>
        </metalink>
        """
    }

    func testEveryDoorResolvesTheSameRequest() async throws {
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        children.append(daemon)
        try await waitUntil { FreePort.isListening(self.port) }

        // 1. haul add, 2. an -i file (a mirror after a TAB).
        var result = try await haul("add", privateURL, "--mirror", mirrorURL)
        XCTAssertEqual(result.status, 0, result.stderr)
        try "\(privateURL)\t\(mirrorURL)\n".write(toFile: dir.path + "/list.txt", atomically: true, encoding: .utf8)
        result = try await haul("add", "-i", dir.path + "/list.txt")
        XCTAssertEqual(result.status, 0, result.stderr)
        // 3. The UI's add dialog: the folder it offers follows the rules.
        let tui = try await TmuxSession(
            command: "'\(HaulBinary.path)'; sleep 600", width: 110, height: 30,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tui"))
        sessions.append(tui)
        // The first two may finish before the UI attaches: it then opens on what happened meanwhile.
        let first = try await tui.waitFor { $0.contains("q Quit") && $0.contains("2 done") }
        if first.contains("any key closes") {
            try await tui.send("Escape")
            _ = try await tui.waitFor { !$0.contains("any key closes") }
        }
        try await tui.send("a")
        _ = try await tui.waitFor { $0.contains("A URL, a magnet link or a .torrent") }
        try await tui.send(privateURL, literal: true)
        _ = try await tui.waitFor { $0.contains("Bins") }
        try await tui.send("Enter")
        _ = try await tui.waitFor { $0.contains("added") }
        // 4. aria2.addUri with a mirror, 5. aria2.addMetalink: the client named no folder.
        _ = try await rpc("aria2.addUri", #"["\#(privateURL)","\#(mirrorURL)"]"#)
        let publicURL = origin.url("file.bin")
        let encoded = Data(metalink(publicURL).utf8).base64EncodedString()
        _ = try await rpc("aria2.addMetalink", #""\#(encoded)""#)
        // 6. A Metalink file.
        try metalink(publicURL).write(toFile: dir.path + "/file.meta4", atomically: true, encoding: .utf8)
        result = try await haul("add", dir.path + "/file.meta4")
        XCTAssertEqual(result.status, 0, result.stderr)
        // 7. haul URL, from another directory: the daemon takes it and it is followed until done.
        // (Another URL of the file: the same URL into the same folder, already there, is left.)
        let direct = privateURL + "?door=7"
        result = try await ChildProcess.run(
            HaulBinary.path, [direct], environment: environment(), in: dir.subdirectory("elsewhere"), timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("took the downloads; following them here"), result.stderr)
        XCTAssertTrue(result.stdout.contains("done: 1 finished"), result.stdout)
        // The same command again finds it already here, and adds nothing.
        result = try await ChildProcess.run(
            HaulBinary.path, [direct], environment: environment(), in: dir.subdirectory("elsewhere"), timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("already here: \(home)/Bins/file"), result.stdout)
        XCTAssertTrue(result.stdout.contains("done: 1 finished"), result.stdout)

        var listed: [[String: Any]] = []
        try await waitUntil(timeout: 60) {
            listed =
                (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath)))
                as? [String: Any])?["downloads"] as? [[String: Any]] ?? []
            return listed.count == 7 && listed.allSatisfy { $0["state"] as? String == "finished" }
        }
        listed = try await listJSON()
        XCTAssertEqual(listed.count, 7)
        for download in listed {
            let path = try XCTUnwrap(download["path"] as? String)
            XCTAssertTrue(path.hasPrefix(home + "/Bins/file"), "the folder rule chose the folder: \(path)")
            XCTAssertTrue(sameFile(www + "/file.bin", path), path)
        }
        // The named host got the login and the per-host header on every request; the mirror
        // host got neither; the Metalink's URLs carried no login.
        let atOrigin = origin.credentialsLog()
        XCTAssertFalse(atOrigin.isEmpty)
        for line in atOrigin {
            XCTAssertTrue(line.hasSuffix("|door"), "per-host header: \(line)")
            if line.hasPrefix("/private/") {
                XCTAssertTrue(line.contains("|Basic "), "netrc login: \(line)")
            } else {
                XCTAssertTrue(line.hasPrefix("/file.bin|-|"), "no login for a Metalink's URL: \(line)")
            }
        }
        XCTAssertEqual(atOrigin.filter { $0.hasPrefix("/file.bin|") }.count >= 2, true, "\(atOrigin)")
        for line in mirror.credentialsLog() {
            XCTAssertTrue(line.contains("|-|") && line.hasSuffix("|-"), "no login or header for a mirror: \(line)")
        }
    }
}
