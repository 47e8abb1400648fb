import Foundation
import XCTest

@testable import haul

final class DaemonLogTests: XCTestCase {
    private var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "haul-daemonlog-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func testALogPastTheLimitIsMovedAsideReplacingTheOlderOne() throws {
        let log = DaemonLog.path(statePath: dir + "/state.json")
        XCTAssertEqual(log, dir + "/state.json.daemon.log")
        try "oldest".write(toFile: log + ".1", atomically: false, encoding: .utf8)
        try "0123456789".write(toFile: log, atomically: false, encoding: .utf8)

        DaemonLog.rotate(log, limit: 10)
        XCTAssertEqual(contents(log), "0123456789", "at the limit it stays")

        try "0123456789A".write(toFile: log, atomically: false, encoding: .utf8)
        DaemonLog.rotate(log, limit: 10)
        XCTAssertNil(contents(log))
        XCTAssertEqual(contents(log + ".1"), "0123456789A")
    }

    func testNoLogOrALinkIsLeftAlone() throws {
        let log = dir + "/state.json.daemon.log"
        DaemonLog.rotate(log, limit: 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: log + ".1"))

        try String(repeating: "x", count: 100).write(toFile: dir + "/elsewhere", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: dir + "/elsewhere")
        DaemonLog.rotate(log, limit: 10)
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: log))
        XCTAssertFalse(FileManager.default.fileExists(atPath: log + ".1"))
    }
}
