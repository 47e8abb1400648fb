import Foundation
import HaulTestSupport
import XCTest

@testable import HaulCore
@testable import HaulStore

/// A command's record in the journal: what it changed, numbered, applied at load only when the
/// state file's save did not cover it already.
final class JournalRecordTests: XCTestCase {
    func download(_ n: Int, order: UInt64) -> Download {
        Download(
            id: DownloadID(rawValue: String(format: "%06x", n)), url: "https://example.org/\(n).bin",
            directory: "/tmp", queueOrder: order)
    }

    func testRecordsAddChangeRemoveAndMoveDownloadsAndSetSettingsInOrder() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let journal = StateJournal(statePath: path)
        let (a, b, c) = (download(1, order: 10), download(2, order: 11), download(3, order: 12))
        journal.appendRecords([a, b, c])
        var pausedB = b
        _ = pausedB.pause(.user)
        pausedB.queueOrder = 5 // moved to the top
        journal.appendRecords([pausedB], removed: [a.id])
        var settings = StateDocument.Settings()
        settings.concurrency = 7
        journal.appendRecords([], settings: settings)
        journal.appendRecords([]) // nothing changed: nothing written

        // The one-pass reader and Foundation read each record the same.
        let text = try String(contentsOfFile: path + ".journal", encoding: .utf8)
        for line in text.split(separator: "\n") {
            let bytes = Array(line.utf8)
            let fast = try bytes.withUnsafeBufferPointer { try StateJSONReader.record($0) }
            XCTAssertEqual(fast, try StateCoding.decoder().decode(StateJournal.Record.self, from: Data(bytes)))
        }

        var document = StateDocument()
        let lines = StateJournal.read(statePath: path)
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(StateJournal.lastSequence(lines), 3)
        StateJournal.apply(lines, to: &document)
        XCTAssertEqual(document.downloads.map(\.id), [b.id, c.id], "a removed, b moved before c")
        XCTAssertEqual(document.downloads.first?.state, .paused(by: .user))
        XCTAssertEqual(document.settings.concurrency, 7)
    }

    func testASaveThatCoveredARecordIsNotUndoneByIt() {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let journal = StateJournal(statePath: path, count: 41)
        var old = download(1, order: 1)
        _ = old.pause(.user)
        journal.appendRecords([old]) // number 42
        var newer = download(1, order: 1)
        newer.speedLimit = 100_000
        var document = StateDocument(downloads: [newer])
        document.journalMark = 42 // the save after the record had it, and more
        StateJournal.apply(StateJournal.read(statePath: path), to: &document)
        XCTAssertEqual(document.downloads.first?.state, .waiting, "the older record is not applied")
        XCTAssertEqual(document.downloads.first?.speedLimit, 100_000)

        document.journalMark = 41
        StateJournal.apply(StateJournal.read(statePath: path), to: &document)
        XCTAssertEqual(document.downloads.first?.state, .paused(by: .user), "a record after the save is")
    }

    func testALineCutShortByACrashIsSkippedWhole() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let journal = StateJournal(statePath: path)
        journal.appendRecords([download(1, order: 1)])
        journal.appendRecords([download(2, order: 2), download(3, order: 3)])
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path + ".journal"))
        try bytes.dropLast(20).write(to: URL(fileURLWithPath: path + ".journal"))
        var document = StateDocument()
        StateJournal.apply(StateJournal.read(statePath: path), to: &document)
        XCTAssertEqual(document.downloads.map(\.id.rawValue), ["000001"], "all of a command or none of it")
    }
}
