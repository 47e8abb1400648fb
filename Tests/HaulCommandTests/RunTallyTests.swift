import XCTest

@testable import HaulCore
@testable import haul

/// The line under `haul run`'s live lines: a list's files done, bytes, speed and time left.
final class RunTallyTests: XCTestCase {
    private func sample(_ id: String, received: Int64, total: Int64?, speed: Double) -> ProgressSample {
        ProgressSample(
            id: DownloadID(rawValue: id), receivedBytes: received, totalBytes: total, bytesPerSecond: speed,
            etaSeconds: nil)
    }

    func testOneDownloadHasNoTallyItsOwnLineSaysItAll() {
        var one = RunTally(files: 1)
        XCTAssertNil(one.line(running: [sample("a", received: 1, total: 2, speed: 1)], now: 0))
        var none = RunTally(files: 0)
        XCTAssertNil(none.line(running: [], now: 0))
    }

    func testFilesBytesAndSpeedAreTheFinishedAndTheRunningTogether() {
        var tally = RunTally(files: 1000)
        for _ in 0..<812 { tally.recordFinished(bytes: 32 * 1024) }
        let running = [
            sample("a", received: 16 * 1024, total: 32 * 1024, speed: 7 * 1_048_576),
            sample("b", received: 0, total: 32 * 1024, speed: 7 * 1_048_576),
        ]
        // 812 × 32 KiB + 16 KiB = 25.4 MiB; left: 16 KiB + 32 KiB running and 186 × 32 KiB
        // waiting, at 14 MiB/s: under half a second.
        XCTAssertEqual(tally.line(running: running, now: 0), "812/1000 files, 25.4 MiB, 14.0 MiB/s, ETA 0s")
    }

    func testTheTimeLeftCountsTheWaitingAtTheFinishedFilesMeanSize() {
        var tally = RunTally(files: 4)
        tally.recordFinished(bytes: 10_000)
        tally.recordFinished(bytes: 30_000)
        // One running with 20,000 left, one waiting of about 20,000: 40,000 at 1,000 B/s.
        let line = tally.line(running: [sample("a", received: 0, total: 20_000, speed: 1000)], now: 0)
        XCTAssertEqual(line, "2/4 files, 39.1 KiB, 1000 B/s, ETA 40s")
    }

    func testTheTimeLeftIsUnknownUntilItCanBeWorkedOut() {
        var tally = RunTally(files: 3)
        // Nothing finished and one waiting: no size to go by.
        XCTAssertEqual(
            tally.line(running: [sample("a", received: 0, total: 100, speed: 10)], now: 0),
            "0/3 files, 0 B, 10 B/s, ETA --")
        tally.recordFinished(bytes: 100)
        // A running download whose size is not known yet counts as the finished files' mean
        // size: 50 of 100 left, and 100 for the one waiting, at 10 B/s.
        XCTAssertEqual(
            tally.line(running: [sample("b", received: 50, total: nil, speed: 10)], now: 0),
            "1/3 files, 150 B, 10 B/s, ETA 15s")
        // Nothing moving.
        XCTAssertEqual(
            tally.line(running: [sample("b", received: 50, total: 100, speed: 0)], now: 0),
            "1/3 files, 150 B, 0 B/s, ETA --")
    }

    func testAListOfSmallFilesHasTheSpeedOfItsBytesThoughNoneIsSampledRunning() {
        var tally = RunTally(files: 100)
        XCTAssertEqual(tally.line(running: [], now: 10), "0/100 files, 0 B, 0 B/s, ETA --")
        // Each file ends before its own speed is sampled: the running ones say 0 B/s.
        for _ in 0..<20 { tally.recordFinished(bytes: 32 * 1024) }
        let running = [sample("a", received: 0, total: 32 * 1024, speed: 0)]
        // 640 KiB in 1 s; 80 files of 32 KiB left: 4 s.
        XCTAssertEqual(tally.line(running: running, now: 11), "20/100 files, 640 KiB, 640 KiB/s, ETA 4s")
        // 20 more by 13 s: 1.25 MiB in 3 s.
        for _ in 0..<20 { tally.recordFinished(bytes: 32 * 1024) }
        XCTAssertEqual(tally.line(running: [], now: 13), "40/100 files, 1.3 MiB, 427 KiB/s, ETA 5s")
        // Only the last few seconds count: at 15 s the first second has left the window, and
        // what is left is 640 KiB in the 4 s since 11 s.
        XCTAssertEqual(tally.line(running: [], now: 15), "40/100 files, 1.3 MiB, 160 KiB/s, ETA 12s")
    }

    func testFailuresAreNamedAndRemovalsAreNoLongerToCome() {
        var tally = RunTally(files: 3)
        tally.recordFailed()
        tally.recordFinished(bytes: 1024)
        tally.recordRemoved()
        XCTAssertEqual(tally.files, 2)
        // Counted as done for the files: "1/2", and the failure said.
        XCTAssertEqual(tally.line(running: [], now: 0), "1/2 files, 1.0 KiB (1 failed), 0 B/s, ETA --")
        // A removal never takes the count under what is already over.
        tally.recordRemoved()
        tally.recordRemoved()
        XCTAssertEqual(tally.files, 2)
        tally.recordAdded()
        XCTAssertEqual(tally.files, 3)
    }
}
