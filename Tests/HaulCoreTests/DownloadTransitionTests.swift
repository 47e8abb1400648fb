import Foundation
import XCTest

@testable import HaulCore

/// Every transition of a download's state, from every state: what it becomes and whether the
/// transition says it changed anything (callers save only then).
final class DownloadTransitionTests: XCTestCase {
    static let states: [DownloadState] = [
        .waiting, .downloading, .paused(by: .user), .paused(by: .metered), .paused(by: .diskFull(shortfall: nil)),
        .paused(by: .budget(nil)), .paused(by: .schedule(until: nil)), .finished, .failed(.status(404)),
        .failed(.cancelled),
    ]

    func download(_ state: DownloadState) -> Download {
        var d = Download(id: DownloadID(rawValue: "abc123"), url: "http://h/x", directory: "/tmp", queueOrder: 0)
        d.state = state
        return d
    }

    /// Applies `transition` to a download in each state; the result is what `expected` says for
    /// that state (nil: nothing changes and the transition says so).
    func check(
        _ name: String, _ transition: (inout Download) -> Bool, expect expected: (DownloadState) -> DownloadState?,
        line: UInt = #line
    ) {
        for state in Self.states {
            var d = download(state)
            let changed = transition(&d)
            let want = expected(state)
            XCTAssertEqual(d.state, want ?? state, "\(name) from \(state)", line: line)
            XCTAssertEqual(changed, want != nil, "\(name) from \(state) says whether it changed", line: line)
        }
    }

    func testPause() {
        check(
            "pause(.user)", { $0.pause(.user) },
            expect: { state in
                switch state {
                case .waiting, .downloading: .paused(by: .user)
                case .paused(let cause) where cause != .user: .paused(by: .user)
                default: nil
                }
            })
        check(
            "pause(.metered)", { $0.pause(.metered) },
            expect: { state in
                switch state {
                case .waiting, .downloading: .paused(by: .metered)
                case .paused(.budget), .paused(.schedule): .paused(by: .metered)
                default: nil // never over a user's pause or a full disk
                }
            })
        check(
            "pause(.diskFull)", { $0.pause(.diskFull(shortfall: nil)) },
            expect: { state in
                state == .waiting || state == .downloading ? .paused(by: .diskFull(shortfall: nil)) : nil
            })
    }

    func testResumeRetryAndStart() {
        check("resume", { $0.resume() }, expect: { $0.isPaused ? .waiting : nil })
        check("retry", { $0.retry() }, expect: { $0.isPaused || $0.isFailed ? .waiting : nil })
        check("fetchAgain", { $0.fetchAgain() }, expect: { $0 == .finished ? .waiting : nil })
        check("start", { $0.start() }, expect: { $0 == .waiting ? .downloading : nil })
        check("stopRunning", { $0.stopRunning() }, expect: { $0 == .downloading ? .waiting : nil })
    }

    func testAPolicyEndsOnlyItsOwnPause() {
        for cause in PauseCause.Kind.allCases {
            check(
                "resumeFromPolicy(\(cause))", { $0.resumeFromPolicy(cause) },
                expect: { state in
                    state.pauseCause?.kind == cause && cause != .user ? .waiting : nil
                })
        }
    }

    func testFinishFailAndCancel() {
        check(
            "finish", { $0.finish(fileName: "x", size: 10, at: Date(timeIntervalSince1970: 1_795_000_000)) },
            expect: { $0 == .finished ? nil : .finished })
        check(
            "fail", { $0.fail(.stalled(seconds: 30)) },
            expect: { $0 == .finished ? nil : .failed(.stalled(seconds: 30)) })
        check(
            "cancel", { $0.cancel() },
            expect: { state in
                state == .finished || state == .failed(.cancelled) ? nil : .failed(.cancelled)
            })
    }

    /// `haul URL` run again with other options: every unfinished download takes them, a running
    /// one waits to start again with them; a finished one, or one that would not change, says so.
    /// A finished download whose file is gone, fetched again: as if new, but the same download
    /// (its id, URL, sources and the name asked for stay).
    func testFetchingAgainStartsAFinishedDownloadAsNew() {
        var d = download(.waiting)
        d.request.requestedName = "one.bin"
        d.previousURLs = ["http://h/files.meta4"]
        XCTAssertTrue(d.finish(fileName: "one (1).bin", size: 5_000, at: Date(timeIntervalSince1970: 1)))
        d.etag = "\"v1\""
        XCTAssertTrue(d.fetchAgain())
        XCTAssertEqual(d.state, .waiting)
        XCTAssertNil(d.fileName, "the name is claimed again")
        XCTAssertEqual(d.receivedBytes, 0)
        XCTAssertNil(d.finishedAt)
        XCTAssertNil(d.etag)
        XCTAssertEqual(d.requestedName, "one.bin")
        XCTAssertEqual(d.previousURLs, ["http://h/files.meta4"], "a rerun of the Metalink's URL still finds it")
        var torrent = download(.waiting)
        torrent.request.url = "magnet:?xt=urn:btih:" + String(repeating: "a", count: 40)
        XCTAssertTrue(torrent.finish(fileName: "t", size: 1, at: Date(timeIntervalSince1970: 1)))
        XCTAssertFalse(torrent.fetchAgain(), "a torrent's files are its session's")
    }

    func testRenewingTakesTheNewOptionsInEveryUnfinishedState() {
        var request = download(.waiting).request
        request.speedLimit = 100_000
        check(
            "renew", { $0.renew(with: request) },
            expect: { state in
                switch state {
                case .finished: nil
                case .downloading: .waiting
                default: state
                }
            })
        var same = download(.paused(by: .user))
        XCTAssertFalse(same.renew(with: same.request), "the same options change nothing")
    }

    /// What stays a download's own when it takes a new request's options: its name, its bytes,
    /// what its sources showed, and the sources servers named; the user's mirrors are the new
    /// request's.
    func testRenewingKeepsTheDownloadsOwnFactsAndTakesTheRequestsOptions() throws {
        var d = download(.failed(.status(503)))
        d.request.requestedName = "kept.bin"
        d.receivedBytes = 4_000
        var otherBytes = DownloadSource(url: "http://m1/x", origin: .user)
        otherBytes.problem = .otherContent
        let gone = DownloadSource(url: "http://m2/x", origin: .user)
        let fromHeader = DownloadSource(url: "http://m3/x", origin: .link)
        d.request.sources = [otherBytes, gone, fromHeader]
        d.request.proxy = try ProxyChoice(parsing: "http://bad:3128")

        var request = DownloadRequest(
            url: d.url, directory: d.directory, headers: [RequestHeader(name: "X-A", value: "1")])
        request.proxy = .direct
        request.requestedName = "other.bin"
        request.sources = [
            DownloadSource(url: "http://m1/x", origin: .user), DownloadSource(url: "http://m4/x", origin: .user),
        ]
        XCTAssertTrue(d.renew(with: request))
        XCTAssertEqual(d.request.proxy, .direct)
        XCTAssertEqual(d.request.headers, [RequestHeader(name: "X-A", value: "1")])
        XCTAssertEqual(d.request.requestedName, "other.bin", "a name asked for now is the file's")
        XCTAssertEqual(d.receivedBytes, 4_000)
        XCTAssertEqual(d.id, DownloadID(rawValue: "abc123"))
        XCTAssertEqual(d.request.sources.map(\.url), ["http://m1/x", "http://m4/x", "http://m3/x"])
        XCTAssertEqual(d.request.sources.first?.problem, .otherContent, "a mirror that sent other bytes stays dropped")

        let fromServer = try Checksum(.sha256, hex: String(repeating: "ab", count: 32))
        d.request.checksum = fromServer
        var again = request
        again.sources = d.request.sources.filter { $0.origin == .user }
        XCTAssertFalse(d.renew(with: again), "a checksum a server gave is not dropped by a request without one")
        XCTAssertEqual(d.request.checksum, fromServer)

        var unnamed = request
        unnamed.requestedName = nil
        XCTAssertFalse(d.renew(with: unnamed), "no name asked for keeps the one it has")
        XCTAssertEqual(d.request.requestedName, "other.bin")

        var noServerMirrors = request
        noServerMirrors.ignoresMirrorHeaders = true
        XCTAssertTrue(d.renew(with: noServerMirrors))
        XCTAssertEqual(d.request.sources.map(\.url), ["http://m1/x", "http://m4/x"], "--no-mirrors drops a header's")

        var elsewhere = request
        elsewhere.directory = "/elsewhere"
        XCTAssertFalse(d.renew(with: elsewhere), "another folder is another download")
        var otherURL = request
        otherURL.url = "http://h/y"
        XCTAssertFalse(d.renew(with: otherURL), "so is another URL")
        var torrent = download(.waiting)
        torrent.request.url = "magnet:?xt=urn:btih:" + String(repeating: "a", count: 40)
        var torrentRequest = torrent.request
        torrentRequest.speedLimit = 100_000
        XCTAssertFalse(torrent.renew(with: torrentRequest), "a torrent's options live in its session")
    }

    /// What a pause for a full disk, a network hold or a failure says of its cause is written by
    /// the transition itself, never beside it.
    func testTheCausesDetailsGoWithTheirTransitions() {
        let full = FailureReason.diskFull(shortfall: 5_000)
        check(
            "waitForRoom", { $0.waitForRoom(full) },
            expect: { $0 == .waiting || $0 == .downloading ? .paused(by: .diskFull(shortfall: 5_000)) : nil })
        var d = download(.downloading)
        d.waitForRoom(full)
        XCTAssertEqual(d.diskShortfall, 5_000)
        XCTAssertEqual(d.lastError, full)
        XCTAssertEqual(d.reason, "disk full — needs 4.9 KiB more")
        XCTAssertTrue(d.stillShortOfRoom(by: 7_000))
        XCTAssertFalse(d.stillShortOfRoom(by: 7_000), "the same shortfall changes nothing")
        XCTAssertEqual(d.diskShortfall, 7_000)
        XCTAssertTrue(d.resumeFromPolicy(.diskFull))
        XCTAssertNil(d.diskShortfall, "the shortfall goes with the pause")
        XCTAssertFalse(d.stillShortOfRoom(by: 1), "only while paused for the disk")

        var held = download(.downloading)
        let use = BudgetUse(used: 100, budget: 100, period: .day)
        XCTAssertTrue(held.pause(.budget(use)))
        XCTAssertEqual(held.pauseCause, .budget(use), "the pause carries what the budget used")
        XCTAssertTrue(held.pause(.schedule(until: 480)), "one network hold becomes another")
        XCTAssertEqual(held.reason, "held by the speed limit's schedule until 08:00")
        XCTAssertFalse(held.pause(.schedule(until: 600)), "the same hold again changes nothing")
        XCTAssertTrue(held.pause(.metered))
        XCTAssertEqual(held.reason, "waiting for unmetered network")

        var retried = download(.downloading)
        retried.willRetry(after: .status(503), madeProgress: false)
        retried.willRetry(after: .status(502), madeProgress: false)
        XCTAssertEqual(retried.retries, 2)
        retried.willRetry(after: .stalled(seconds: 30), madeProgress: true)
        XCTAssertEqual(retried.retries, 1, "progress starts the count again")
        XCTAssertEqual(retried.lastError, .stalled(seconds: 30))
        XCTAssertTrue(retried.fail(.status(404)))
        XCTAssertEqual(retried.lastError, .status(404))
        XCTAssertTrue(retried.cancel())
        XCTAssertEqual(retried.lastError, .status(404), "a cancel is not an error")
    }

    func testFinishingRecordsTheFileAndForgetsThePieces() {
        var d = download(.downloading)
        d.segments = [Segment(start: 0, end: 10, received: 5)]
        d.activeConnections = 3
        d.retries = 2
        XCTAssertTrue(d.finish(fileName: "x.bin", size: 10, at: Date(timeIntervalSince1970: 5)))
        XCTAssertEqual(d.fileName, "x.bin")
        XCTAssertEqual(d.receivedBytes, 10)
        XCTAssertEqual(d.totalBytes, 10)
        XCTAssertEqual(d.finishedAt, Date(timeIntervalSince1970: 5))
        XCTAssertNil(d.segments)
        XCTAssertNil(d.activeConnections)
        XCTAssertEqual(d.retries, 0)
    }

    func testTheStateFilesThreeKeysMeanOneState() {
        typealias Parts = DownloadState.Parts
        XCTAssertEqual(Parts(kind: .paused).resolved, .paused(by: .user), "a pause without a cause is the user's")
        XCTAssertEqual(Parts(kind: .failed).resolved, .failed(.other("failed")))
        XCTAssertEqual(Parts(kind: .waiting, pauseCause: .metered, failureReason: .cancelled).resolved, .waiting)
        XCTAssertEqual(Parts(kind: .paused, failureReason: .cancelled).resolved, .paused(by: .user))
        XCTAssertEqual(Parts().resolved, .waiting, "no state key: a download that has not started")
        for state in Self.states {
            let parts = Parts(kind: state.kind, pauseCause: state.pauseCause?.kind, failureReason: state.failureReason)
            XCTAssertEqual(parts.resolved, state)
        }
    }
}
