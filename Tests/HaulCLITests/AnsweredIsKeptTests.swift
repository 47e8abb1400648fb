import Foundation
import HaulTestSupport
import XCTest

/// What haul answered is on disk before the answer: the daemon is killed (`kill -9`) the moment
/// an add, a pause, a removal or a limit change is answered, over aria2's RPC (curl) and over
/// the socket (the CLI), and what was answered is there when the state is read again.
final class AnsweredIsKeptTests: CLITestCase {
    var port = 0
    let secret = "kept-secret"
    /// Rounds per kind of answer and door (`HAUL_KILL_ROUNDS`; by default 12, so 96 kills in all,
    /// each costing a daemon's start: set it higher to hunt a rare loss).
    let rounds = ProcessInfo.processInfo.environment["HAUL_KILL_ROUNDS"].flatMap(Int.init) ?? 12

    override func setUp() async throws {
        try await super.setUp()
        port = FreePort.find()
        let on = try await haul("rpc", "on", "--port", String(port), "--secret", secret)
        XCTAssertEqual(on.status, 0, on.stderr)
    }

    enum Door { case rpc, socket }
    enum Answer: CaseIterable { case add, pause, remove, limit }

    /// A daemon that answers on its socket and its RPC port.
    func startDaemon() async throws -> ChildProcess {
        // A download that cannot connect keeps retrying, slowly, so it is still there to pause.
        let daemon = try spawnHaul(
            ["daemon"], log: dir.path + "/daemon.log", env: ["HAUL_MAX_RETRIES": "1000", "HAUL_RETRY_BASE": "5"])
        try await waitUntil { FreePort.isListening(self.port) }
        return daemon
    }

    func rpc(_ method: String, _ params: String) async throws -> Any? {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":["token:\#(secret)",\#(params)]}"#
        let reply = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "-d", body, "http://127.0.0.1:\(port)/jsonrpc"], environment: [:], in: dir.path,
            timeout: 30)
        let object = try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any]
        XCTAssertNotNil(object?["result"], reply.stdout)
        return object?["result"]
    }

    /// The downloads as `haul ls --json` reads them from the state file and its journal, by id.
    func listed() async throws -> [String: [String: Any]] {
        var byID: [String: [String: Any]] = [:]
        for d in try await listJSON() { byID[d["id"] as? String ?? ""] = d }
        return byID
    }

    /// Adds paused downloads in one command with no daemon running (it owns the state itself);
    /// their ids in order.
    func addPaused(_ names: [String]) async throws -> [String] {
        let result = try await haul(["add", "--paused", "-d", downloads] + names.map { "http://127.0.0.1:9/\($0)" })
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.prefix(6)) }
    }

    func testAnAddAnsweredOverRPCSurvivesAKill() async throws { try await killRounds(.add, door: .rpc) }
    func testAPauseAnsweredOverRPCSurvivesAKill() async throws { try await killRounds(.pause, door: .rpc) }
    func testARemovalAnsweredOverRPCSurvivesAKill() async throws { try await killRounds(.remove, door: .rpc) }
    func testALimitAnsweredOverRPCSurvivesAKill() async throws { try await killRounds(.limit, door: .rpc) }
    func testAnAddAnsweredOnTheSocketSurvivesAKill() async throws { try await killRounds(.add, door: .socket) }
    func testAPauseAnsweredOnTheSocketSurvivesAKill() async throws { try await killRounds(.pause, door: .socket) }
    func testARemovalAnsweredOnTheSocketSurvivesAKill() async throws { try await killRounds(.remove, door: .socket) }
    func testALimitAnsweredOnTheSocketSurvivesAKill() async throws { try await killRounds(.limit, door: .socket) }

    /// `rounds` times: a daemon starts, gives one answer of the kind through the door, and is
    /// killed the moment the answer arrives; what it answered must then be in the state.
    func killRounds(_ answer: Answer, door: Door) async throws {
        let names = (0..<rounds).map { "\(door)-\(answer)-\($0).bin" }
        // What the answers act on exists before the first daemon starts; those to be paused
        // wait (from an address that refuses, so they stay in the list, retrying).
        let existing: [String?] = answer == .add ? names.map { _ in nil } : try await addPaused(names)
        if answer == .pause {
            let resumed = try await haul(["resume"] + existing.compactMap { $0 })
            XCTAssertEqual(resumed.status, 0, resumed.stderr)
        }
        var lost: [String] = []
        for round in 0..<rounds {
            let daemon = try await startDaemon()
            let id = try await act(answer, door: door, on: existing[round], name: names[round])
            kill(daemon.pid, SIGKILL)
            await daemon.terminate()
            let after = try await listed()
            let kept: Bool
            switch answer {
            case .add: kept = after[id] != nil
            case .pause: kept = after[id]?["state"] as? String == "paused"
            case .remove: kept = after[id] == nil
            case .limit: kept = after[id]?["speedLimit"] as? Int == 512_000
            }
            if !kept { lost.append("round \(round): \(after[id] ?? [:])") }
        }
        XCTAssertEqual(lost, [], "\(door) \(answer): answered, then lost to kill -9")
        if answer == .add {
            let count = try await listed().count
            XCTAssertEqual(count, rounds)
        }
    }

    /// Carries out one answer through `door`; returns the id it concerns.
    func act(_ answer: Answer, door: Door, on existing: String?, name: String) async throws -> String {
        let gid = existing.map { String(repeating: "0", count: 10) + $0 }
        switch (door, answer) {
        case (.rpc, .add):
            let result = try await rpc(
                "aria2.addUri", #"["http://127.0.0.1:9/\#(name)"],{"dir":"\#(downloads)","pause":"true"}"#)
            return String(try XCTUnwrap(result as? String).suffix(6))
        case (.rpc, .pause): _ = try await rpc("aria2.forcePause", #""\#(gid!)""#)
        case (.rpc, .remove): _ = try await rpc("aria2.remove", #""\#(gid!)""#)
        case (.rpc, .limit): _ = try await rpc("aria2.changeOption", #""\#(gid!)",{"max-download-limit":"500K"}"#)
        case (.socket, .add):
            let result = try await haul("add", "--paused", "-d", downloads, "http://127.0.0.1:9/\(name)")
            XCTAssertEqual(result.status, 0, result.stderr)
            return String(result.stdout.prefix(6))
        case (.socket, .pause):
            let result = try await haul("pause", existing!)
            XCTAssertEqual(result.status, 0, result.stderr)
        case (.socket, .remove):
            let result = try await haul("rm", existing!)
            XCTAssertEqual(result.status, 0, result.stderr)
        case (.socket, .limit):
            let result = try await haul("limit", "500K", existing!)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        return existing!
    }
}
