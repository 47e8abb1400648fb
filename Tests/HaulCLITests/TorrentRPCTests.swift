import Foundation
import HaulTestSupport
import XCTest

/// Torrents over aria2's RPC, driven by aria2p (PyPI) and curl against `haul daemon`, in a swarm
/// of opentracker and aria2c on loopback.
final class TorrentRPCTests: TorrentTestCase {
    var port = 0
    let secret = "torrent-secret"
    var daemon: ChildProcess?

    override func setUp() async throws {
        try await super.setUp()
        port = FreePort.find()
        let on = try await haul("rpc", "on", "--port", String(port), "--secret", secret)
        XCTAssertEqual(on.status, 0, on.stderr)
    }

    override func tearDown() async throws {
        await daemon?.terminate()
        try await super.tearDown()
    }

    func startDaemon() async throws {
        daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        try await waitUntil { FreePort.isListening(self.port) }
    }

    func aria2p(_ arguments: [String]) async throws -> CommandResult {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        return try await ChildProcess.run(
            RPCClients.bin("aria2p"), ["--port", String(port), "--secret", secret] + arguments, environment: env,
            in: dir.path, timeout: 30)
    }

    /// One call with curl; the reply's `result`.
    func rpc(_ method: String, _ params: String) async throws -> Any {
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":["token:\#(secret)"\#(params.isEmpty ? "" : "," + params)]}"#
        let reply = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"], environment: [:], in: dir.path)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any], reply.stdout)
        return try XCTUnwrap(object["result"], reply.stdout)
    }

    func waitForStatus(_ gid: String, _ status: String) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(60)
        var last: [String: Any] = [:]
        while Date() < deadline {
            let reply = try await rpc("aria2.tellStatus", "\"\(gid)\"")
            last = try XCTUnwrap(reply as? [String: Any])
            if last["status"] as? String == status { return last }
            try await Task.sleep(for: .milliseconds(200))
        }
        XCTFail("never \(status): \(last)")
        return last
    }

    func testAria2pAddsAMagnetAndATorrentFileAndHearsTheBitTorrentCompletion() async throws {
        let (torrent, hash) = try await seededFile("set.bin", size: 2_000_000)
        let (other, otherHash) = try await seededFile("more.bin", size: 1_000_000)
        try await swarm.startTracker(allowing: [hash, otherHash])
        try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.seedWithAria2(other, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        try await swarm.waitForSeeders(1, of: otherHash)
        try await startDaemon()
        let heard = dir.path + "/bt-complete.txt"
        let callbacks = dir.path + "/callbacks.py"
        try """
        def on_bt_download_complete(api, gid):
            with open("\(heard)", "a") as f:
                f.write(gid + "\\n")
        """.write(toFile: callbacks, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        let listener = try ChildProcess(
            RPCClients.bin("aria2p"),
            ["--port", String(port), "--secret", secret, "listen", "-c", callbacks, "-t", "1", "btcomplete"],
            environment: env, stdout: dir.path + "/listen.log", stderr: dir.path + "/listen.log")
        defer { Task { await listener.terminate() } }
        try await Task.sleep(for: .seconds(1))

        let magnet = "magnet:?xt=urn:btih:\(hash)&dn=set.bin&tr=\(swarm.announce)"
        let addedMagnet = try await aria2p(["add-magnets", magnet])
        XCTAssertEqual(addedMagnet.status, 0, addedMagnet.stdout + addedMagnet.stderr)
        let magnetGID = try XCTUnwrap(
            addedMagnet.stdout.split(separator: "\n").first { $0.hasPrefix("Created download") }?.split(separator: " ")
                .last.map(String.init))
        let addedFile = try await aria2p(["add-torrents", other])
        XCTAssertEqual(addedFile.status, 0, addedFile.stdout + addedFile.stderr)
        let fileGID = try XCTUnwrap(
            addedFile.stdout.split(separator: "\n").first { $0.hasPrefix("Created download") }?.split(separator: " ")
                .last.map(String.init))

        let status = try await waitForStatus(magnetGID, "complete")
        XCTAssertEqual(status["infoHash"] as? String, hash)
        let bittorrent = try XCTUnwrap(status["bittorrent"] as? [String: Any])
        XCTAssertEqual((bittorrent["info"] as? [String: Any])?["name"] as? String, "set.bin")
        XCTAssertEqual(bittorrent["mode"] as? String, "single")
        XCTAssertEqual((bittorrent["announceList"] as? [[String]])?.first?.first, swarm.announce)
        _ = try await waitForStatus(fileGID, "complete")
        XCTAssertTrue(sameFile(downloads + "/set.bin", seedData + "/set.bin"))
        XCTAssertTrue(sameFile(downloads + "/more.bin", seedData + "/more.bin"))
        try await waitUntil(timeout: 10) {
            ((try? String(contentsOfFile: heard, encoding: .utf8)) ?? "").split(separator: "\n").count >= 2
        }
        let told = try String(contentsOfFile: heard, encoding: .utf8)
        XCTAssertTrue(told.contains(magnetGID) && told.contains(fileGID), told)
        // Upload limits as aria2 names them: a torrent's own, and the overall one.
        let changed = try await rpc("aria2.changeOption", #""\#(fileGID)",{"max-upload-limit":"300K"}"#)
        XCTAssertEqual(changed as? String, "OK")
        let own = try await rpc("aria2.getOption", "\"\(fileGID)\"") as? [String: Any]
        XCTAssertEqual(own?["max-upload-limit"] as? String, "307200")
        // Its peers as aria2 counts them (bt-max-peers); split is an HTTP download's, left alone.
        let peers = try await rpc("aria2.changeOption", #""\#(fileGID)",{"bt-max-peers":"5","split":"3"}"#)
        XCTAssertEqual(peers as? String, "OK")
        let limited = try await rpc("aria2.getOption", "\"\(fileGID)\"") as? [String: Any]
        XCTAssertEqual(limited?["bt-max-peers"] as? String, "5")
        XCTAssertEqual(limited?["split"] as? String, "8", "the default, not the peers")
        let unlimited = try await rpc("aria2.changeOption", #""\#(fileGID)",{"bt-max-peers":"0"}"#)
        XCTAssertEqual(unlimited as? String, "OK")
        let none = try await rpc("aria2.getOption", "\"\(fileGID)\"") as? [String: Any]
        XCTAssertEqual(none?["bt-max-peers"] as? String, "0")
        // Its own seeding goal over the engine's (ratio 0, no time) as aria2 names it.
        XCTAssertEqual(none?["seed-ratio"] as? String, "0.0")
        XCTAssertNil(none?["seed-time"])
        let goal = try await rpc("aria2.changeOption", #""\#(fileGID)",{"seed-ratio":"1.5","seed-time":"30"}"#)
        XCTAssertEqual(goal as? String, "OK")
        let seeding = try await rpc("aria2.getOption", "\"\(fileGID)\"") as? [String: Any]
        XCTAssertEqual(seeding?["seed-ratio"] as? String, "1.5")
        XCTAssertEqual(seeding?["seed-time"] as? String, "30")
        let changedGlobal = try await rpc("aria2.changeGlobalOption", #"{"max-overall-upload-limit":"1M"}"#)
        XCTAssertEqual(changedGlobal as? String, "OK")
        let global = try await rpc("aria2.getGlobalOption", "") as? [String: Any]
        XCTAssertEqual(global?["max-overall-upload-limit"] as? String, "1048576")
        // The engine's own seeding, as `haul torrents` sets it.
        let seedingSet = try await rpc("aria2.changeGlobalOption", #"{"seed-ratio":"0.5","seed-time":"20"}"#)
        XCTAssertEqual(seedingSet as? String, "OK")
        let saved = try await haul("torrents")
        XCTAssertTrue(saved.stdout.contains("seed ratio 0.50, seed time 20 min"), saved.stdout)
        let shown = try await rpc("aria2.getGlobalOption", "") as? [String: Any]
        XCTAssertEqual([shown?["seed-ratio"] as? String, shown?["seed-time"] as? String], ["0.5", "20"])
        // A finished torrent's files, from what the state folder keeps.
        let reply = try await rpc("aria2.getFiles", "\"\(fileGID)\"")
        let files = try XCTUnwrap(reply as? [[String: Any]])
        XCTAssertEqual(files.first?["completedLength"] as? String, files.first?["length"] as? String)
        XCTAssertEqual(files.first?["selected"] as? String, "true")
    }

    func testAMalformedTorrentOverRPCIsRefusedInOneSentenceAndAddsNothing() async throws {
        try await startDaemon()
        let garbage = Data("d8:announce3:abc4:infod4:name".utf8).base64EncodedString()
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"aria2.addTorrent","params":["token:\#(secret)","\#(garbage)"]}"#
        let reply = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"], environment: [:], in: dir.path)
        XCTAssertTrue(reply.stdout.contains("not a torrent file"), reply.stdout)
        let listed = try await rpc("aria2.tellWaiting", "0,10") as? [Any]
        XCTAssertEqual(listed?.count, 0)
    }
}
