import Foundation
import HaulCore
import HaulHTTP
import HaulStore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// The engine against Debian's nginx on loopback: the real-world HTTP cases.
final class NginxEngineTests: EngineTestCase {
    var nginx: NginxServer!
    var www: String!

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "400k", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    func testACappedServerServesASegmentedDownloadOverSeveralConnectionsAtOnce() async throws {
        try TestFiles.random(www + "/capped.bin", size: 8 << 20)
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, nginx.url("slow/capped.bin"))
        let d = try await finished(engine, id, timeout: 60)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(d.path!, www + "/capped.bin")
        let requests = nginx.accessLog().filter { $0.uri == "/slow/capped.bin" }.sorted { $0.start < $1.start }
        XCTAssertTrue(requests.dropFirst().allSatisfy { $0.status == 206 && $0.range != nil }, "\(requests)")
        XCTAssertGreaterThanOrEqual(
            nginx.peakConcurrency(uri: "/slow/capped.bin"), 4, "at least four connections at once, as nginx saw them")
    }

    /// Events are paced while transfers keep ending, but the last transfer's end goes out at
    /// once: `haul URL` returns on it, and no burst follows that the pace would gather.
    func testTheLastTransfersEndIsNotHeldForThePace() async throws {
        try TestFiles.random(www + "/one.bin", size: 32 << 10)
        let engine = try makeEngine { $0.eventPace = .seconds(60) }
        let events = await engine.subscribe()
        let id = try await add(engine, nginx.url("one.bin"))
        let started = ContinuousClock.now
        await engine.start()
        var finishedAfter: Duration?
        let listener = Task {
            for await event in events {
                if case .updated(let d) = event, d.id == id, d.state == .finished { return true }
            }
            return false
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            listener.cancel()
        }
        if await listener.value { finishedAfter = ContinuousClock.now - started }
        watchdog.cancel()
        let waited = try XCTUnwrap(finishedAfter, "the finished event never came within 20 s")
        XCTAssertLessThan(waited, .seconds(10), "the event waited for the 60-second pace")
    }

    func testFullDownloadIsByteIdenticalAndLeavesNoPart() async throws {
        // 20 MiB: more than two `WriteBehind` chunks are handed to writeback while it is written.
        try TestFiles.random(www + "/data.bin", size: 20 << 20)
        let engine = try makeEngine()
        let id = try await add(engine, nginx.url("data.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished)
        XCTAssertEqual(d.path, downloadDirectory + "/data.bin")
        XCTAssertEqual(d.receivedBytes, 20 << 20)
        assertSameContents(d.path!, www + "/data.bin")
        XCTAssertEqual(partFiles(), [])
    }

    func testExistingFileIsNeverOverwritten() async throws {
        try TestFiles.random(www + "/data.bin", size: 1000)
        try "mine".write(toFile: downloadDirectory + "/data.bin", atomically: false, encoding: .utf8)
        let engine = try makeEngine()
        let first = try await add(engine, nginx.url("data.bin"))
        let second = try await add(engine, nginx.url("data.bin"))
        await engine.start()
        let a = try await finished(engine, first)
        let b = try await finished(engine, second)
        XCTAssertEqual(Set([a.fileName, b.fileName]), ["data (1).bin", "data (2).bin"])
        XCTAssertEqual(try String(contentsOfFile: downloadDirectory + "/data.bin", encoding: .utf8), "mine")
        assertSameContents(a.path!, www + "/data.bin")
        assertSameContents(b.path!, www + "/data.bin")
    }

    /// A `.part` nobody in this state file claims (another program's, or a download's of another
    /// state file) is never written into: the download takes the next name.
    func testAForeignPartFileIsLeftAloneAndTheNextNameTaken() async throws {
        try TestFiles.random(www + "/data.bin", size: 1000)
        try "theirs".write(toFile: downloadDirectory + "/data.bin.part", atomically: false, encoding: .utf8)
        let engine = try makeEngine()
        let id = try await add(engine, nginx.url("data.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.fileName, "data (1).bin")
        assertSameContents(d.path!, www + "/data.bin")
        XCTAssertEqual(try String(contentsOfFile: downloadDirectory + "/data.bin.part", encoding: .utf8), "theirs")
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloadDirectory + "/data.bin"))
    }

    /// tmpfs (where placing skips fsync and the worker thread): files land whole, an existing
    /// file keeps its name, and no `.part` is left.
    func testDownloadsIntoTmpfsLandWholeWithoutReplacingAFile() async throws {
        let shm = TestDirectory("haul-engine-shm", in: "/dev/shm")
        try TestFiles.random(www + "/a.bin", size: 100_000)
        try TestFiles.random(www + "/data.bin", size: 1000)
        try "mine".write(toFile: shm.path + "/data.bin", atomically: false, encoding: .utf8)
        let engine = try makeEngine()
        let ids = try await engine.perform(
            .add(["a.bin", "data.bin"].map { DownloadRequest(url: nginx.url($0), directory: shm.path) }))
        await engine.start()
        let a = try await finished(engine, ids[0])
        let data = try await finished(engine, ids[1])
        XCTAssertEqual(a.path, shm.path + "/a.bin")
        XCTAssertEqual(data.path, shm.path + "/data (1).bin")
        assertSameContents(a.path!, www + "/a.bin")
        assertSameContents(data.path!, www + "/data.bin")
        XCTAssertEqual(try String(contentsOfFile: shm.path + "/data.bin", encoding: .utf8), "mine")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: shm.path).filter { $0.hasSuffix(".part") }, [])
    }

    func testPauseThenResumeContinuesFromWhereItStopped() async throws {
        let size = 1_500_000
        try TestFiles.random(www + "/big.bin", size: size)
        let engine = try makeEngine()
        let id = try await add(engine, nginx.url("slow/big.bin"))
        await engine.start()
        try await waitFor(engine, id) { $0.receivedBytes > 200_000 }
        try await engine.perform(.pause(.ids([id])))
        let pausedOrNil = await engine.download(id)
        let paused = try XCTUnwrap(pausedOrNil)
        XCTAssertEqual(paused.state.kind, .paused)
        XCTAssertEqual(paused.reason, "paused by user")
        let partPath = try XCTUnwrap(paused.partPath)
        let stoppedAt = try XCTUnwrap(PartFile.size(at: partPath))
        XCTAssertEqual(paused.receivedBytes, stoppedAt)
        try await Task.sleep(for: .milliseconds(400))
        XCTAssertEqual(PartFile.size(at: partPath), stoppedAt, "nothing may be written while paused")

        try await engine.perform(.resume(.ids([id])))
        let done = try await finished(engine, id)
        XCTAssertEqual(done.state, .finished)
        assertSameContents(done.path!, www + "/big.bin")
        let requests = nginx.accessLog().filter { $0.uri == "/slow/big.bin" }
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.last?.range, "bytes=\(stoppedAt)-")
        XCTAssertEqual(requests.last?.status, 206)
        XCTAssertEqual(requests.last?.bytesSent, Int64(size) - stoppedAt, "the resume asked only for the missing bytes")
    }

    func testRemoteFileChangedBetweenRunsStartsOverAndSaysSo() async throws {
        try TestFiles.random(www + "/file.bin", size: 1_000_000)
        let engine = try makeEngine()
        let id = try await add(engine, nginx.url("slow/file.bin"))
        await engine.start()
        try await waitFor(engine, id) { $0.receivedBytes > 100_000 }
        try await engine.perform(.pause(.ids([id])))
        try await Task.sleep(for: .milliseconds(1100)) // a new mtime, so a new ETag
        try TestFiles.random(www + "/file.bin", size: 600_000)
        try await engine.perform(.resume(.ids([id])))
        let done = try await finished(engine, id)
        XCTAssertEqual(done.state, .finished)
        XCTAssertEqual(done.notice, .startedOver(.remoteChanged))
        assertSameContents(done.path!, www + "/file.bin")
        let last = try XCTUnwrap(nginx.accessLog().last)
        XCTAssertNotNil(last.ifRange, "the resume must be conditional")
        XCTAssertEqual(last.status, 200)
    }

    func testNotFoundAndGoneFailWithAReason() async throws {
        let engine = try makeEngine()
        let missing = try await add(engine, nginx.url("nope.bin"))
        let gone = try await add(engine, nginx.url("gone"))
        await engine.start()
        let a = try await finished(engine, missing)
        let b = try await finished(engine, gone)
        XCTAssertEqual(a.state.kind, .failed)
        XCTAssertEqual(a.reason, "not found on the server (HTTP 404)")
        XCTAssertEqual(b.state.kind, .failed)
        XCTAssertEqual(b.reason, "link expired or removed (HTTP 410)")
        XCTAssertEqual(nginx.accessLog().count, 2, "permanent failures are not retried")
        XCTAssertEqual(partFiles(), [])
    }

    func testThousandSmallFilesNeverExceedTheConcurrencyLimit() async throws {
        let count = 1000
        for i in 0..<count { try TestFiles.random(www + "/f\(i).bin", size: 2048 + i) }
        let engine = try makeEngine()
        try await engine.perform(.setConcurrency(3))
        var ids: [DownloadID] = []
        for i in 0..<count { ids.append(try await add(engine, nginx.url("f\(i).bin"))) }
        let events = await engine.subscribe()
        let watcher = Task { () -> Int in
            var running = Set<DownloadID>()
            var peak = 0
            var finished = 0
            for await event in events {
                guard case .updated(let d) = event else { continue }
                if d.state == .downloading { running.insert(d.id) } else { running.remove(d.id) }
                peak = max(peak, running.count)
                if d.state == .finished { finished += 1 }
                if finished == count { break }
            }
            return peak
        }
        await engine.start()
        await engine.waitUntilIdle()
        let peak = await watcher.value
        XCTAssertEqual(peak, 3, "the limit is used fully and never exceeded")
        let all = await engine.allDownloads
        XCTAssertEqual(all.filter { $0.state == .finished }.count, count)
        for (i, d) in all.enumerated() where i % 97 == 0 {
            assertSameContents(d.path!, www + "/" + d.fileName!)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: downloadDirectory).count, count)
    }

    func testChecksumMismatchFailsAndSaysSo() async throws {
        try TestFiles.random(www + "/x.bin", size: 1000)
        let engine = try makeEngine()
        let id = try await add(
            engine, nginx.url("x.bin"), checksum: try Checksum(.sha256, hex: String(repeating: "0", count: 64)))
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state.kind, .failed)
        XCTAssertTrue(d.reason?.hasPrefix("SHA-256 checksum mismatch") ?? false, d.reason ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloadDirectory + "/x.bin"))
    }

    func testChecksumMatchFinishes() async throws {
        try TestFiles.random(www + "/x.bin", size: 100_000)
        let expected = try XCTUnwrap(sha256(www + "/x.bin"))
        let engine = try makeEngine()
        let id = try await add(engine, nginx.url("x.bin"), checksum: try Checksum(.sha256, hex: expected.uppercased()))
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished)
    }

    func testCancelStopsAndDeletesThePart() async throws {
        try TestFiles.random(www + "/big.bin", size: 2_000_000)
        let engine = try makeEngine()
        let id = try await add(engine, nginx.url("slow/big.bin"))
        await engine.start()
        let running = try await waitFor(engine, id) { $0.receivedBytes > 50_000 }
        let part = try XCTUnwrap(running.partPath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: part))
        try await engine.perform(.cancel(.ids([id])))
        try await engine.perform(.cancel(.ids([id])))
        let dOrNil = await engine.download(id)
        let d = try XCTUnwrap(dOrNil)
        XCTAssertEqual(d.state.kind, .failed)
        XCTAssertEqual(d.failureReason, .cancelled)
        XCTAssertEqual(d.reason, "cancelled by user")
        XCTAssertFalse(FileManager.default.fileExists(atPath: part))
        try await engine.perform(.remove(.ids([id]), deleteFiles: false))
        let gone = await engine.download(id)
        XCTAssertNil(gone)
    }

    func testRemoveKeepsAFinishedFileUnlessAsked() async throws {
        try TestFiles.random(www + "/a.bin", size: 1000)
        try TestFiles.random(www + "/b.bin", size: 1000)
        let engine = try makeEngine()
        let a = try await add(engine, nginx.url("a.bin"))
        let b = try await add(engine, nginx.url("b.bin"))
        await engine.start()
        _ = try await finished(engine, a)
        _ = try await finished(engine, b)
        try await engine.perform(.remove(.ids([a]), deleteFiles: false))
        try await engine.perform(.remove(.ids([b]), deleteFiles: true))
        XCTAssertTrue(FileManager.default.fileExists(atPath: downloadDirectory + "/a.bin"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloadDirectory + "/b.bin"))
        let left = await engine.allDownloads
        XCTAssertEqual(left.count, 0)
    }

    /// Running downloads' byte counts are kept apart from the engine's rows; a progress save
    /// must still write them, and reading a download must see them.
    func testProgressSavesWriteTheBytesReceivedWhileRunning() async throws {
        try TestFiles.random(www + "/big.bin", size: 6_000_000)
        let engine = try makeEngine { $0.progressSaveInterval = .seconds(0.1) }
        let id = try await add(engine, nginx.url("slow/big.bin"), connections: 1)
        await engine.start()
        try await waitFor(engine, id) { $0.receivedBytes > 300_000 }
        let deadline = Date().addingTimeInterval(10)
        var saved: Int64 = 0
        while Date() < deadline, saved < 300_000 {
            try await Task.sleep(for: .milliseconds(50))
            let document = try StateFile(path: dir.path + "/state/state.json").loadReadOnly()
            let entry = document.downloads.first { $0.id == id }
            XCTAssertEqual(entry?.state, .downloading, "still running when saved")
            saved = entry?.receivedBytes ?? 0
        }
        XCTAssertGreaterThanOrEqual(saved, 300_000, "the state file has the running download's progress")
        let live = await engine.download(id)?.receivedBytes ?? 0
        XCTAssertGreaterThanOrEqual(live, saved)
        let listed = await engine.allDownloads.first { $0.id == id }?.receivedBytes ?? 0
        XCTAssertGreaterThanOrEqual(listed, saved)
    }

    func testStateSurvivesARestartWithThePartAsTruth() async throws {
        try TestFiles.random(www + "/big.bin", size: 1_000_000)
        var engine = try makeEngine()
        let id = try await add(engine, nginx.url("slow/big.bin"))
        await engine.start()
        try await waitFor(engine, id) { $0.receivedBytes > 100_000 }
        await engine.shutdown()
        engines.removeAll()
        let partOrNil = await engine.download(id)?.partPath
        let part = try XCTUnwrap(partOrNil)
        let onDisk = try XCTUnwrap(PartFile.size(at: part))

        engine = try makeEngine()
        let reloadedOrNil = await engine.download(id)
        let reloaded = try XCTUnwrap(reloadedOrNil)
        XCTAssertEqual(reloaded.state, .waiting, "a transfer that was running is queued again")
        XCTAssertEqual(reloaded.receivedBytes, onDisk)
        await engine.start()
        let done = try await finished(engine, id)
        assertSameContents(done.path!, www + "/big.bin")
        XCTAssertEqual(nginx.accessLog().last?.range, "bytes=\(onDisk)-")
    }
}
