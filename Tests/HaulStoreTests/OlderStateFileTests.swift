import Foundation
import HaulTestSupport
import XCTest

@testable import HaulCore
@testable import HaulStore

/// A state file as haul wrote it before a download's state carried its cause (three keys that
/// could disagree) loads with every download in the state its keys meant.
final class OlderStateFileTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/state-before-states-carried-causes.json")

    func testEveryStateAndEveryOddCombinationLoads() throws {
        let dir = TestDirectory("older-state")
        let path = dir.path + "/state.json"
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: path)
        let loaded = try StateFile(path: path).load(now: Date())
        XCTAssertNil(loaded.recoveryMessage, "read as it is, nothing repaired")
        let states = loaded.document.downloads.map(\.state)
        XCTAssertEqual(
            states,
            [
                // A full disk's shortfall and a hold's words, kept beside the pause then, go with it now.
                .waiting, .downloading, .paused(by: .user), .paused(by: .metered),
                .paused(by: .diskFull(shortfall: 12_345)),
                .paused(by: .budget(BudgetUse(used: 8 << 20, budget: 8 << 20, period: .day))),
                .paused(by: .schedule(until: 17 * 60)), .finished, .failed(.status(410)), .failed(.cancelled),
                // A pause without its cause was the user's; a failure without a reason is unknown.
                .paused(by: .user), .failed(.other("failed")),
                // A cause beside a state it does not belong to is dropped.
                .waiting,
                .failed(.checksumMismatch(algorithm: "sha-256", expected: "ab", actual: "cd")),
            ])
        let reasons = loaded.document.downloads.map(\.reason)
        XCTAssertEqual(reasons[4], "disk full — needs 12.1 KiB more")
        XCTAssertEqual(reasons[11], "failed")
    }

    /// Foundation's reader (the path a damaged file takes) reads the same states.
    func testFoundationReadsTheSameStates() throws {
        let data = try Data(contentsOf: Self.fixture)
        let document = try StateCoding.decoder().decode(StateDocument.self, from: data)
        let dir = TestDirectory("older-state-foundation")
        let path = dir.path + "/state.json"
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: path)
        XCTAssertEqual(
            document.downloads.map(\.state), try StateFile(path: path).load(now: Date()).document.downloads.map(\.state)
        )
    }

    /// A state written now and read back is the same state, for every state.
    func testEveryStateSurvivesTheStateFile() throws {
        let states: [DownloadState] = [
            .waiting, .downloading, .paused(by: .user), .paused(by: .metered), .paused(by: .diskFull(shortfall: nil)),
            .paused(by: .budget(nil)), .paused(by: .schedule(until: nil)), .finished, .failed(.cancelled),
            .failed(.status(404)),
        ]
        let downloads = states.enumerated().map { i, state in
            var d = Download(
                id: DownloadID(rawValue: String(format: "b%05d", i)), url: "http://h/\(i)", directory: "/d",
                queueOrder: UInt64(i))
            d.state = state
            return d
        }
        let dir = TestDirectory("state-round-trip")
        let file = StateFile(path: dir.path + "/state.json")
        try file.prepareDirectory()
        try file.save(StateDocument(downloads: downloads))
        XCTAssertEqual(try file.load(now: Date()).document.downloads.map(\.state), states)
    }
}
