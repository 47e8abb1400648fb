import Foundation
import HaulTestSupport
import XCTest

/// Runs the real `haul` binary in an isolated HOME with its own state file.
class CLITestCase: XCTestCase {
    var dir: TestDirectory!
    var home: String { dir.path }
    var downloads: String { dir.path + "/Downloads" }
    var statePath: String { dir.path + "/state/state.json" }

    override func setUp() async throws {
        dir = TestDirectory("haul-cli")
        chmod(dir.path, 0o755)
        _ = dir.subdirectory("Downloads")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: HaulBinary.path), "build haul first: \(HaulBinary.path)")
    }

    override func tearDown() async throws {
        dir = nil
    }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        HaulBinary.environment(home: home, extra: ["HAUL_RETRY_BASE": "0.05"].merging(extra) { $1 })
    }

    @discardableResult
    func haul(_ arguments: String..., env: [String: String] = [:], timeout: Double = 120) async throws -> CommandResult
    {
        try await ChildProcess.run(
            HaulBinary.path, arguments, environment: environment(env), in: dir.path, timeout: timeout)
    }

    @discardableResult
    func haul(_ arguments: [String], env: [String: String] = [:], timeout: Double = 120) async throws -> CommandResult {
        try await ChildProcess.run(
            HaulBinary.path, arguments, environment: environment(env), in: dir.path, timeout: timeout)
    }

    /// Starts `haul` without waiting for it; output goes to `log`.
    func spawnHaul(_ arguments: [String], log: String, env: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(HaulBinary.path, arguments, environment: environment(env), stdout: log, stderr: log)
    }

    func listJSON() async throws -> [[String: Any]] {
        let result = try await haul("ls", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    func waitUntil(timeout: Double = 30, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTFail("timed out")
        throw CancellationError()
    }

    func fileSize(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }

    func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = FileManager.default.contents(atPath: a), let y = FileManager.default.contents(atPath: b) else {
            return false
        }
        return x == y
    }
}

/// A ``CLITestCase`` with nginx on loopback serving `www`, its `/slow/` location at `slowRate`.
class NginxCLITestCase: CLITestCase {
    var nginx: NginxServer!
    var www: String!
    var slowRate: String { "1m" }

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: slowRate, workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }
}
