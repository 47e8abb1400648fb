import Foundation
import HaulTestSupport
import XCTest

/// What the binary does with a state file that a crash or a disk left behind.
final class StateFileRecoveryTests: CLITestCase {
    func testCrashBetweenWritingTheTemporaryFileAndRenamingLosesNothing() async throws {
        let first = try await haul("add", "http://127.0.0.1:9/first.bin")
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try String(contentsOfFile: statePath, encoding: .utf8)

        let crashed = try await haul("add", "http://127.0.0.1:9/second.bin", env: ["HAUL_FAULT": "crash-before-rename"])
        XCTAssertEqual(crashed.status, 128 + SIGKILL, "the fault hook kills haul mid-save")
        XCTAssertEqual(try String(contentsOfFile: statePath, encoding: .utf8), before, "the old state is intact")

        let third = try await haul("add", "http://127.0.0.1:9/third.bin")
        XCTAssertEqual(third.status, 0, third.stderr)
        // The second add was journaled whole before the save began, so the crash loses it no more
        // than it would lose an answered one.
        let urls = try await listJSON().compactMap { $0["url"] as? String }
        XCTAssertEqual(
            urls, ["http://127.0.0.1:9/first.bin", "http://127.0.0.1:9/second.bin", "http://127.0.0.1:9/third.bin"])
    }

    func testCorruptStateFileIsMovedAsideAndTheUserIsTold() async throws {
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        try "{\"version\":1,\"downloads\":[{\"id\":".write(toFile: statePath, atomically: false, encoding: .utf8)
        let ls = try await haul("ls")
        XCTAssertEqual(ls.status, 3)
        XCTAssertTrue(ls.stderr.contains("damaged"), ls.stderr)

        let add = try await haul("add", "http://127.0.0.1:9/x.bin")
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(add.stderr.contains("was unreadable") && add.stderr.contains("moved to"), add.stderr)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/state").filter {
            $0.hasPrefix("state.json.corrupt-")
        }
        XCTAssertEqual(aside.count, 1)
        XCTAssertEqual(
            try String(contentsOfFile: dir.path + "/state/" + aside[0], encoding: .utf8),
            "{\"version\":1,\"downloads\":[{\"id\":")
        let list = try await listJSON()
        XCTAssertEqual(list.count, 1)
    }

    func testStateFileAndDirectoryArePrivate() async throws {
        _ = try await haul("add", "http://127.0.0.1:9/x.bin")
        let fileMode = try FileManager.default.attributesOfItem(atPath: statePath)[.posixPermissions] as? Int
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.path + "/state")[.posixPermissions] as? Int
        XCTAssertEqual(fileMode, 0o600)
        XCTAssertEqual(dirMode, 0o700)
    }
}
