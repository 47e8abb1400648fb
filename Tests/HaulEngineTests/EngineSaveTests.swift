import Foundation
import HaulCore
import HaulStore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Shutting down writes the state file only when it is behind: a `haul run` with nothing to do
/// does not rewrite 100,000 downloads.
final class EngineSaveTests: EngineTestCase {
    private var statePath: String { dir.path + "/state/state.json" }

    /// The file's inode and modification time: a save replaces the file (write, then rename).
    private func identity() throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: statePath)
        return "\(attributes[.systemFileNumber]!) \((attributes[.modificationDate] as! Date).timeIntervalSince1970)"
    }

    func testAnEngineThatChangedNothingLeavesTheFileAlone() async throws {
        let first = try makeEngine()
        _ = try await add(first, "http://127.0.0.1:9/a.bin", paused: true)
        await first.shutdown()
        let written = try identity()

        let idle = try makeEngine()
        await idle.shutdown()
        XCTAssertEqual(try identity(), written, "nothing changed, nothing written")

        let changed = try makeEngine()
        try await changed.perform(.setConcurrency(5))
        await changed.shutdown()
        XCTAssertNotEqual(try identity(), written, "a changed setting is saved")
        let afterSetting = try identity()

        let adding = try makeEngine()
        _ = try await add(adding, "http://127.0.0.1:9/b.bin", paused: true)
        await adding.shutdown()
        XCTAssertNotEqual(try identity(), afterSetting, "a new download is saved")
        let reread = try makeEngine()
        let count = await reread.allDownloads.count
        XCTAssertEqual(count, 2)
        await reread.shutdown()
    }

    func testWhatTheDiskChangedAtLoadIsSaved() async throws {
        // A paused download whose `.part` grew after the state was last written.
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        let state = """
            {"version":1,"settings":{"concurrency":3,"meteredMode":"off"},\
            "downloads":[{"id":"abc123","url":"http://127.0.0.1:9/a.bin",\
            "directory":"\(downloadDirectory!)","fileName":"a.bin","state":"paused","pauseCause":"user",\
            "receivedBytes":1000,\
            "queueOrder":0,"addedAt":0}]}
            """
        try state.write(toFile: statePath, atomically: true, encoding: .utf8)
        try Data(count: 1234).write(to: URL(fileURLWithPath: downloadDirectory + "/a.bin.part"))
        let written = try identity()

        let engine = try makeEngine()
        await engine.shutdown()
        XCTAssertNotEqual(try identity(), written, "the reconciled byte count is saved")
        let data = try Data(contentsOf: URL(fileURLWithPath: statePath))
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#""receivedBytes":1234"#))

        let again = try identity()
        let unchanged = try makeEngine()
        await unchanged.shutdown()
        XCTAssertEqual(try identity(), again, "once saved, the next start finds nothing to change")
    }

    /// The journal writes a finish only with the next claim (`appendSoon`): after a `kill -9`
    /// just past the rename, the state and the journal know only the claim, and the load finds
    /// the finished file at the claimed name.
    func testAFinishOnlyTheDiskKnowsOfIsFoundAtLoad() async throws {
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        let state = """
            {"version":1,"settings":{"concurrency":3,"meteredMode":"off"},\
            "downloads":[{"id":"abc123","url":"http://127.0.0.1:9/a.bin",\
            "directory":"\(downloadDirectory!)","state":"downloading","receivedBytes":0,"queueOrder":0,"addedAt":0},\
            {"id":"def456","url":"http://127.0.0.1:9/b.bin","directory":"\(downloadDirectory!)","state":"downloading",\
            "receivedBytes":0,"queueOrder":1,"addedAt":0}]}
            """
        try state.write(toFile: statePath, atomically: true, encoding: .utf8)
        let journal = StateJournal(statePath: statePath)
        journal.append(.init(id: DownloadID(rawValue: "abc123"), fileName: "a.bin", totalBytes: 1234, finished: false))
        journal.append(.init(id: DownloadID(rawValue: "def456"), fileName: "b.bin", totalBytes: 1234, finished: false))
        try Data(count: 1234).write(to: URL(fileURLWithPath: downloadDirectory + "/a.bin"))
        // b.bin's final name holds a file of another size: not b's (its claim said 1234 bytes).
        try Data(count: 99).write(to: URL(fileURLWithPath: downloadDirectory + "/b.bin"))

        let engine = try makeEngine()
        let a = await engine.download(DownloadID(rawValue: "abc123"))
        let b = await engine.download(DownloadID(rawValue: "def456"))
        await engine.shutdown()
        XCTAssertEqual(a?.state, .finished)
        XCTAssertEqual(a?.receivedBytes, 1234)
        XCTAssertEqual(a?.fileName, "a.bin")
        XCTAssertNotEqual(b?.state, .finished)
        XCTAssertEqual(b?.receivedBytes, 0)
    }
}
