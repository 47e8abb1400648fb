import Foundation
import HaulTestSupport
import XCTest

@testable import HaulCore
@testable import HaulStore

final class StateFileTests: XCTestCase {
    func sample(_ n: Int) -> [Download] {
        (0..<n).map { i in
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)), url: "https://example.org/\(i).bin",
                directory: "/tmp", queueOrder: UInt64(i))
            d.fileName = "\(i).bin"
            d.totalBytes = i % 2 == 0 ? Int64(i * 100) : nil
            d.etag = "\"e\(i)\""
            return d
        }
    }

    func testTheStateDirectoryIsMadeWithItsParentsAndOnlyTheOwnerMayEnterIt() throws {
        let dir = TestDirectory()
        let file = StateFile(path: dir.path + "/one/two/haul/state.json")
        try file.prepareDirectory()
        var info = stat()
        XCTAssertEqual(stat(dir.path + "/one/two/haul", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(dir.path + "/one/two", &info), 0, "the parents are made too")
        try file.prepareDirectory() // already there: nothing to do
        try file.save(StateDocument())
        XCTAssertNotNil(FileManager.default.contents(atPath: dir.path + "/one/two/haul/state.json"))

        XCTAssertTrue(FileManager.default.createFile(atPath: dir.path + "/plain", contents: Data()))
        XCTAssertThrowsError(try StateFile(path: dir.path + "/plain/haul/state.json").prepareDirectory()) { error in
            XCTAssertTrue("\(error)".contains("cannot create the state directory \(dir.path)/plain/haul"), "\(error)")
        }
    }

    func testRoundTripKeepsEveryField() throws {
        let dir = TestDirectory()
        let file = StateFile(path: dir.path + "/state.json")
        var document = StateDocument(
            settings: .init(concurrency: 5, meteredMode: .auto, meteredLimit: 512_000), downloads: sample(20))
        document.downloads[3].state = .paused(by: .metered)
        document.downloads[4].fail(.status(410))
        try file.save(document)
        let loaded = try file.load(now: Date())
        XCTAssertNil(loaded.recoveryMessage)
        XCTAssertEqual(loaded.document.settings, document.settings)
        XCTAssertEqual(loaded.document.downloads.count, 20)
        XCTAssertEqual(loaded.document.downloads.map(\.id), document.downloads.map(\.id))
        XCTAssertEqual(loaded.document.downloads[3].reason, "waiting for unmetered network")
        XCTAssertEqual(loaded.document.downloads[4].reason, "link expired or removed (HTTP 410)")
        XCTAssertEqual(loaded.document.downloads[7].etag, "\"e7\"")
    }

    func testSavedFileIsPrivate() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        try StateFile(path: path).save(StateDocument())
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testLeftoverTemporaryFileFromACrashIsIgnored() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        try StateFile(path: path).save(StateDocument(downloads: sample(2)))
        try "{ half-written".write(toFile: path + ".tmp-99999", atomically: false, encoding: .utf8)
        let loaded = try StateFile(path: path).load(now: Date())
        XCTAssertEqual(loaded.document.downloads.count, 2)
        XCTAssertNil(loaded.recoveryMessage)
    }

    func testCorruptFileIsMovedAsideNotOverwritten() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        try "this is not json {".write(toFile: path, atomically: false, encoding: .utf8)
        let loaded = try StateFile(path: path).load(now: Date())
        XCTAssertEqual(loaded.document.downloads.count, 0)
        let message = try XCTUnwrap(loaded.recoveryMessage)
        XCTAssertTrue(message.contains("moved to"), message)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("state.json.corrupt-")
        }
        XCTAssertEqual(aside.count, 1)
        XCTAssertEqual(try String(contentsOfFile: dir.path + "/" + aside[0], encoding: .utf8), "this is not json {")
    }

    func testDamagedEntriesAreReportedAndTheRestKept() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let json =
            #"{"version":1,"downloads":[{"id":"aaaaaa","url":"http://h/a","directory":"/tmp"},{"id":42},"#
            + #"{"id":"bbbbbb","url":"http://h/b","directory":"/tmp","state":"finished"}]}"#
        try json.write(toFile: path, atomically: false, encoding: .utf8)
        let loaded = try StateFile(path: path).load(now: Date())
        XCTAssertEqual(loaded.document.downloads.map(\.id.rawValue), ["aaaaaa", "bbbbbb"])
        XCTAssertTrue(loaded.recoveryMessage?.contains("1 of 3 downloads") ?? false)
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).contains {
                $0.hasPrefix("state.json.corrupt-")
            })
    }

    func testNewerVersionIsRefusedAndLeftUntouched() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let json = #"{"version":99,"downloads":[]}"#
        try json.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try StateFile(path: path).load(now: Date())) {
            XCTAssertTrue("\($0)".contains("newer haul"))
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), json)
    }

    func testSecondWriterIsRefusedWithThePidOfTheFirst() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        var first: StateLock? = try StateLock(statePath: path)
        XCTAssertThrowsError(try StateLock(statePath: path)) { error in
            let held = error as? StateLock.Held
            XCTAssertEqual(held?.pid, getpid())
            XCTAssertTrue("\(error)".contains("another haul (pid \(getpid())) is already using the state file"))
        }
        XCTAssertNotNil(first)
        first = nil
        _ = try StateLock(statePath: path) // released with the first
    }

    /// Only a process that holds the lock is its holder: not the pid a killed haul left in the
    /// file, even once another process has that pid, and not a zombie (`haul ls` would otherwise
    /// show interrupted downloads as still running).
    func testOnlyTheProcessHoldingTheLockIsTheHolder() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        var lock: StateLock? = try StateLock(statePath: path)
        XCTAssertEqual(StateLock.currentHolder(statePath: path), getpid())
        lock?.release()
        lock = nil
        XCTAssertNil(StateLock.currentHolder(statePath: path))

        func spawn(_ arguments: [String]) throws -> pid_t {
            var pid: pid_t = 0
            let argv = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            XCTAssertEqual(posix_spawn(&pid, arguments[0], nil, nil, argv, environ), 0)
            return pid
        }
        func holder(named pid: pid_t) throws -> Int32? {
            try "\(pid)\n".write(toFile: path + ".lock", atomically: false, encoding: .utf8)
            return StateLock.currentHolder(statePath: path)
        }
        // The pid of a killed haul, now another program's.
        let sleeper = try spawn(["/bin/sleep", "30"])
        XCTAssertNil(try holder(named: sleeper), "alive, but it holds no lock")
        kill(sleeper, SIGKILL)
        for _ in 0..<200 where !StateLock.isZombie(sleeper) { usleep(10_000) }
        XCTAssertTrue(StateLock.isZombie(sleeper))
        XCTAssertNil(try holder(named: sleeper), "a zombie")
        var status: Int32 = 0
        waitpid(sleeper, &status, 0)
        XCTAssertNil(try holder(named: sleeper), "gone entirely")
    }

    func testProcLocksNamesTheHolderOfOneFile() {
        let text = """
            1: POSIX  ADVISORY  WRITE 700 fe:00:42 0 EOF
            2: -> FLOCK  ADVISORY  WRITE 801 fe:00:42 0 EOF
            3: FLOCK  ADVISORY  WRITE 800 fe:00:42 0 EOF
            4: FLOCK  ADVISORY  WRITE 900 00:2c:42 0 EOF
            5: OFDLCK ADVISORY  READ  -1 fe:00:43 0 EOF
            """
        XCTAssertEqual(
            ProcLocks.holder(in: text[...], major: 0xfe, minor: 0, inode: 42), .held(pid: 800),
            "not a POSIX lock, not a waiter")
        XCTAssertEqual(
            ProcLocks.holder(in: text[...], major: 0, minor: 0x2c, inode: 42), .held(pid: 900),
            "same inode, another device")
        XCTAssertEqual(ProcLocks.holder(in: text[...], major: 0xfe, minor: 0, inode: 43), .free)
        XCTAssertEqual(ProcLocks.holder(in: "", major: 0xfe, minor: 0, inode: 42), .free)
    }

    func testDefaultPathsFollowXDG() {
        XCTAssertEqual(
            StatePaths.stateFile(explicit: nil, environment: ["HOME": "/home/u"]),
            "/home/u/.local/state/haul/state.json")
        XCTAssertEqual(
            StatePaths.stateFile(explicit: nil, environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/s"]),
            "/s/haul/state.json")
        XCTAssertEqual(
            StatePaths.stateFile(explicit: nil, environment: ["HOME": "/home/u", "HAUL_STATE": "/x/s.json"]),
            "/x/s.json")
        XCTAssertEqual(StatePaths.stateFile(explicit: "/y.json", environment: ["HAUL_STATE": "/x/s.json"]), "/y.json")
        XCTAssertEqual(
            StatePaths.downloadDirectory(environment: ["HOME": "/nonexistent-home"]), "/nonexistent-home/Downloads")
        XCTAssertEqual(StatePaths.downloadDirectory(environment: ["HOME": "/h", "XDG_DOWNLOAD_DIR": "/dl"]), "/dl")
    }
}

final class StateFileEdgeCaseTests: XCTestCase {
    func testUnknownFieldsAreReportedAndTheOriginalKept() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let json =
            #"{"version":1,"future":true,"settings":{"concurrency":2,"turbo":1},"#
            + #""downloads":[{"id":"aaaaaa","url":"http://h/a","directory":"/tmp","colour":"red"}]}"#
        try json.write(toFile: path, atomically: false, encoding: .utf8)
        let loaded = try StateFile(path: path).load(now: Date())
        XCTAssertEqual(loaded.document.downloads.count, 1)
        XCTAssertEqual(loaded.document.settings.concurrency, 2)
        let message = try XCTUnwrap(loaded.recoveryMessage)
        XCTAssertTrue(message.contains("downloads[].colour, future, settings.turbo"), message)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("state.json.corrupt-")
        }
        XCTAssertEqual(try String(contentsOfFile: dir.path + "/" + aside[0], encoding: .utf8), json)
    }

    func testKnownFieldsAreNotReportedAsUnknown() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        var d = Download(
            id: DownloadID(rawValue: "abcdef"), url: "http://h/a", directory: "/tmp",
            headers: [RequestHeader(name: "A", value: "b")],
            checksum: try Checksum(.sha256, hex: String(repeating: "0", count: 64)), allowMetered: true, paused: true,
            queueOrder: 3)
        d.fileName = "a"
        d.totalBytes = 10
        d.etag = "e"
        d.lastModified = "m"
        d.resumable = true
        d.finalURL = "u"
        d.lastError = .stalled(seconds: 30)
        d.notice = .retrying(
            because: .status(503), at: Date(timeIntervalSince1970: 1_700_000_011), attempt: 2, of: 5)
        d.state = .failed(.checksumMismatch(algorithm: "sha256", expected: "ab", actual: "cd"))
        d.addedAt = Date(timeIntervalSince1970: 1_700_000_000) // ISO 8601 keeps whole seconds
        d.finishedAt = Date(timeIntervalSince1970: 1_700_000_100)
        try StateFile(path: path).save(
            StateDocument(settings: .init(concurrency: 4, meteredMode: .on, meteredLimit: 100_000), downloads: [d]))
        let loaded = try StateFile(path: path).load(now: Date())
        XCTAssertNil(loaded.recoveryMessage)
        XCTAssertEqual(loaded.document.downloads.first, d)
    }

    func testTruncatedFileIsMovedAside() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        var d = Download(id: DownloadID(rawValue: "abcdef"), url: "http://h/a", directory: "/tmp", queueOrder: 0)
        d.fileName = "a"
        try StateFile(path: path).save(StateDocument(downloads: [d, d]))
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [1, full.count / 3, full.count - 1] {
            try full.prefix(cut).write(to: URL(fileURLWithPath: path))
            let loaded = try StateFile(path: path).load(now: Date())
            XCTAssertTrue(loaded.recoveryMessage?.contains("moved to") ?? false, "cut at \(cut)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "never overwritten in place")
        }
    }

    func testAHundredThousandEntriesRoundTrip() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let downloads = (0..<100_000).map { i -> Download in
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)), url: "https://example.org/files/\(i).bin",
                directory: "/srv/dl", queueOrder: UInt64(i))
            d.fileName = "\(i).bin"
            d.state = .finished
            d.totalBytes = Int64(i) * 1000
            d.receivedBytes = Int64(i) * 1000
            return d
        }
        try StateFile(path: path).save(StateDocument(downloads: downloads))
        let loaded = try StateFile(path: path).load(now: Date())
        XCTAssertNil(loaded.recoveryMessage)
        XCTAssertEqual(loaded.document.downloads.count, 100_000)
        XCTAssertEqual(loaded.document.downloads[99_999].fileName, "99999.bin")
    }
}

final class StateJournalTests: XCTestCase {
    func testClaimsAndFinishesSurviveAndACutLastLineIsSkipped() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let a = Download(id: DownloadID(rawValue: "aaaaaa"), url: "http://h/a", directory: "/d", queueOrder: 0)
        let b = Download(id: DownloadID(rawValue: "bbbbbb"), url: "http://h/b", directory: "/d", queueOrder: 1)
        try StateFile(path: path).save(StateDocument(downloads: [a, b]))
        let journal = StateJournal(statePath: path)
        let finishedAt = Date(timeIntervalSince1970: 1_795_000_123.25)
        journal.append(.init(id: a.id, fileName: "a.iso", totalBytes: 10, finished: false))
        journal.append(.init(id: b.id, fileName: "b.iso", totalBytes: nil, finished: false))
        journal.append(.init(id: a.id, fileName: "a.iso", totalBytes: 10, finished: true, finishedAt: finishedAt))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path + ".journal"))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"id":"bbbbbb","fileN"#.utf8))
        try handle.close()

        let document = try StateFile(path: path).loadReadOnly()
        XCTAssertEqual(document.downloads[0].state, .finished)
        XCTAssertEqual(document.downloads[0].fileName, "a.iso")
        XCTAssertEqual(document.downloads[0].receivedBytes, 10)
        XCTAssertEqual(document.downloads[0].finishedAt, finishedAt, "dated by the engine's clock when it finished")
        XCTAssertEqual(document.downloads[1].state, .waiting)
        XCTAssertEqual(document.downloads[1].fileName, "b.iso")

        journal.clear()
        XCTAssertEqual(StateJournal.claims(statePath: path), [])
    }

    /// A claim's validators come back with it (quotes and all, as servers send them), and a
    /// later entry without any (a map, a finish) leaves them.
    func testAClaimKeepsTheValidatorsOfItsBytes() throws {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let a = Download(id: DownloadID(rawValue: "aaaaaa"), url: "http://h/a", directory: "/d", queueOrder: 0)
        try StateFile(path: path).save(StateDocument(downloads: [a]))
        let journal = StateJournal(statePath: path)
        let claim = StateJournal.Entry(
            id: a.id, fileName: "a.iso", totalBytes: 10, finished: false, etag: #"W/"x\"y""#,
            lastModified: "Mon, 30 Nov 2026 12:00:00 GMT")
        journal.append(claim)
        journal.append(
            .init(id: a.id, fileName: "a.iso", totalBytes: 10, finished: false, segments: [.init(start: 0, end: 10)]))
        XCTAssertEqual(StateJournal.claims(statePath: path).first, claim, "written by hand, read by Foundation")

        let document = try StateFile(path: path).loadReadOnly()
        XCTAssertEqual(document.downloads[0].etag, #"W/"x\"y""#)
        XCTAssertEqual(document.downloads[0].lastModified, "Mon, 30 Nov 2026 12:00:00 GMT")
    }

    /// A save clears the journal only when nothing was appended since its snapshot: an entry
    /// that came after may not be in the saved state. Appends from many threads all land.
    func testAClearAfterASnapshotKeepsWhatCameLater() async {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let journal = StateJournal(statePath: path)
        let early = StateJournal.Entry(
            id: DownloadID(rawValue: "aaaaaa"), fileName: "a", totalBytes: 1, finished: false)
        let late = StateJournal.Entry(id: DownloadID(rawValue: "bbbbbb"), fileName: "b", totalBytes: 2, finished: true)
        journal.append(early)
        let mark = journal.appendCount
        journal.append(late)
        XCTAssertFalse(journal.clear(ifNothingAppendedSince: mark))
        XCTAssertEqual(StateJournal.claims(statePath: path), [early, late])
        XCTAssertTrue(journal.clear(ifNothingAppendedSince: journal.appendCount))
        XCTAssertEqual(StateJournal.claims(statePath: path), [])

        await withTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
                group.addTask {
                    journal.append(
                        .init(
                            id: DownloadID(rawValue: String(format: "%06x", i)), fileName: "f\(i)", totalBytes: nil,
                            finished: false))
                }
            }
        }
        let lines = StateJournal.claims(statePath: path)
        XCTAssertEqual(Set(lines.map(\.fileName)), Set((0..<200).map { "f\($0)" }), "every line whole, none lost")
        XCTAssertEqual(journal.appendCount, mark + 1 + 200)
    }

    /// A finish kept by `appendSoon` reaches the file with the next claim (before it, in one
    /// line order), with a flush, or when the journal goes away; a save that covers it drops it.
    func testAFinishKeptForLaterIsWrittenWithTheNextClaimOrDroppedByASave() {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let finish = StateJournal.Entry(
            id: DownloadID(rawValue: "aaaaaa"), fileName: "a", totalBytes: 1, finished: true)
        let claim = StateJournal.Entry(
            id: DownloadID(rawValue: "bbbbbb"), fileName: "b", totalBytes: nil, finished: false)
        var journal: StateJournal? = StateJournal(statePath: path)
        journal!.appendSoon(finish)
        XCTAssertEqual(StateJournal.claims(statePath: path), [], "kept, not written")
        journal!.append(claim)
        XCTAssertEqual(StateJournal.claims(statePath: path), [finish, claim])

        XCTAssertTrue(journal!.clear(ifNothingAppendedSince: journal!.appendCount))
        journal!.appendSoon(finish)
        XCTAssertTrue(journal!.clear(ifNothingAppendedSince: journal!.appendCount), "the save covers the kept finish")
        journal!.flush()
        XCTAssertEqual(StateJournal.claims(statePath: path), [], "dropped with the clear")

        journal!.appendSoon(finish)
        let mark = journal!.appendCount
        journal!.appendSoon(claim)
        XCTAssertFalse(journal!.clear(ifNothingAppendedSince: mark), "one came after the snapshot")
        journal!.flush()
        XCTAssertEqual(StateJournal.claims(statePath: path), [finish, claim])

        journal!.clear()
        journal!.appendSoon(finish)
        journal = nil
        XCTAssertEqual(StateJournal.claims(statePath: path), [finish], "written when the journal goes away")
    }

    /// The journal's lines are written by hand; Foundation must read back exactly what was written.
    func testHandWrittenLinesReadBackExactly() {
        let dir = TestDirectory()
        let path = dir.path + "/state.json"
        let names = [#"quote " and \ back"#, "tab\tnew\nline\u{1}", "日本語 ünï 🎉.bin", "plain.iso", ""]
        let entries = names.enumerated().map { i, name in
            StateJournal.Entry(
                id: DownloadID(rawValue: String(format: "%06x", i)), fileName: name,
                totalBytes: i % 2 == 0 ? Int64(i) * 1_000_000_007 : nil, finished: i % 3 == 0)
        }
        let journal = StateJournal(statePath: path)
        entries.forEach(journal.append)
        XCTAssertEqual(StateJournal.claims(statePath: path), entries)
    }
}

/// Paths the user gives (`--state`, `-d`) are made absolute and standard before use.
final class StatePathsTests: XCTestCase {
    func testAPathIsMadeAbsoluteAndStandard() {
        let environment = ["HOME": "/home/me"]
        XCTAssertEqual(StatePaths.absolute("/a/./b/../c//d", environment: environment), "/a/c/d")
        XCTAssertEqual(StatePaths.absolute("/../x", environment: environment), "/x")
        XCTAssertEqual(StatePaths.absolute("~/dl/../state.json", environment: environment), "/home/me/state.json")
        XCTAssertEqual(StatePaths.absolute("~", environment: environment), "/home/me")
        let here = FileManager.default.currentDirectoryPath
        XCTAssertEqual(StatePaths.absolute("x/../y.json", environment: environment), here + "/y.json")
    }
}

extension StateJournal {
    /// The claims and finishes on disk, leaving out commands' records.
    static func claims(statePath: String) -> [Entry] {
        read(statePath: statePath).compactMap { line in
            guard case .claim(let entry) = line else { return nil }
            return entry
        }
    }
}
