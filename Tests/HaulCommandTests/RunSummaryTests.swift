import XCTest

@testable import HaulCore
@testable import haul

/// The last line of `haul run`: what finished, failed, is paused and is left.
final class RunSummaryTests: XCTestCase {
    private func download(_ id: String, _ state: DownloadState) -> Download {
        var download = Download(
            id: DownloadID(rawValue: id), url: "http://127.0.0.1/\(id).bin", directory: "/tmp", queueOrder: 0)
        download.state = state
        return download
    }

    func testOnlyTheCountsThatAreNotZeroAreNamedAfterTheFinishedOnes() {
        let all = [download("a1", .finished), download("a2", .finished), download("a3", .finished)]
        XCTAssertEqual(RunReporter.summaryLine(all, failedIDs: [], interrupted: false), "done: 3 finished")
        XCTAssertEqual(RunReporter.summaryLine([], failedIDs: [], interrupted: false), "done: 0 finished")
    }

    func testEveryKindInItsOrder() {
        let all = [
            download("b1", .finished), download("b2", .failed(.status(404))), download("b3", .paused(by: .user)),
            download("b4", .waiting), download("b5", .downloading),
        ]
        XCTAssertEqual(
            RunReporter.summaryLine(all, failedIDs: [DownloadID(rawValue: "b2")], interrupted: false),
            "done: 1 finished, 1 failed, 1 paused, 2 left to resume")
    }

    /// A follower that stopped counts the states the events gave, not those it started from.
    func testTheStatesAloneMakeTheSameLine() {
        let states: [DownloadState] = [.finished, .waiting, .paused(by: .user)]
        XCTAssertEqual(
            RunReporter.summaryLine(
                states: states, failedIDs: [], interrupted: true, goingOnIn: "haul (pid 7, daemon)"),
            "stopped following; haul (pid 7, daemon) goes on: 1 finished, 1 paused, 1 to go")
        var followed = FollowedDownloads([DownloadID(rawValue: "d1")])
        let started = download("d1", .downloading)
        followed.apply([started])
        var finished = started
        finished.state = .finished
        followed.apply(.updated(finished))
        XCTAssertEqual(followed.latestStates(of: [started]), [.finished])
    }

    func testAnInterruptedRunSaysItsProgressIsSaved() {
        let all = [download("c1", .waiting)]
        XCTAssertEqual(
            RunReporter.summaryLine(all, failedIDs: [], interrupted: true),
            "interrupted; progress saved: 0 finished, 1 left to resume")
    }

    /// `haul URL` that handed its downloads to a daemon and only followed them: a Ctrl-C stops
    /// the following, and the line says who goes on with them.
    func testAFollowerStoppedSaysWhoGoesOn() {
        let all = [download("d1", .finished), download("d2", .downloading)]
        let owner = "haul (pid 42, daemon)"
        XCTAssertEqual(
            RunReporter.summaryLine(all, failedIDs: [], interrupted: true, goingOnIn: owner),
            "stopped following; haul (pid 42, daemon) goes on: 1 finished, 1 to go")
        XCTAssertEqual(
            RunReporter.summaryLine([all[0]], failedIDs: [], interrupted: false, goingOnIn: owner),
            "done: 1 finished", "a follower that saw the end says done")
    }
}
