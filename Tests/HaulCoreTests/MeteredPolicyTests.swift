import XCTest

@testable import HaulCore

/// Every transition of the metered-network policy.
final class MeteredPolicyTests: XCTestCase {
    func download(_ id: String, _ state: DownloadState.Kind, cause: PauseCause.Kind? = nil, allowed: Bool = false)
        -> Download
    {
        var d = Download(
            id: DownloadID(rawValue: id), url: "http://h/\(id)", directory: "/tmp", allowMetered: allowed, queueOrder: 0
        )
        d.state = DownloadState.Parts(kind: state, pauseCause: cause, failureReason: .status(404)).resolved
        return d
    }

    var all: [Download] {
        [
            download("down-n", .downloading), download("down-a", .downloading, allowed: true),
            download("wait-n", .waiting), download("wait-a", .waiting, allowed: true),
            download("user-n", .paused, cause: .user), download("user-a", .paused, cause: .user, allowed: true),
            download("metr-n", .paused, cause: .metered), download("metr-a", .paused, cause: .metered, allowed: true),
            download("done-n", .finished), download("fail-n", .failed),
        ]
    }

    func ids(_ list: [DownloadID]) -> [String] { list.map(\.rawValue) }
    func ids(_ list: [HoldPolicy.Hold]) -> [String] { list.map(\.id.rawValue) }

    func testBecomingMeteredPausesWhatIsNotAllowed() {
        let decision = HoldPolicy.decide(all, HoldConditions(metered: true))
        XCTAssertEqual(ids(decision.pause), ["down-n", "wait-n"])
        XCTAssertEqual(ids(decision.resume), ["metr-a"], "an allowance given while metered resumes it")
    }

    func testBecomingUnmeteredResumesOnlyPolicyPauses() {
        let decision = HoldPolicy.decide(all, HoldConditions(metered: false))
        XCTAssertEqual(ids(decision.pause), [])
        XCTAssertEqual(ids(decision.resume), ["metr-n", "metr-a"], "a user's pause stays")
    }

    func testPolicyPauseAndResumeKeepTheQueuePosition() {
        var d = download("x", .waiting)
        d.queueOrder = 7
        XCTAssertTrue(d.pause(.metered))
        XCTAssertEqual(d.reason, "waiting for unmetered network")
        XCTAssertTrue(d.resumeFromPolicy(.metered))
        XCTAssertEqual(d.state, .waiting)
        XCTAssertEqual(d.queueOrder, 7)
        XCTAssertFalse(d.resumeFromPolicy(.metered))
        var user = download("u", .paused, cause: .user)
        XCTAssertFalse(user.resumeFromPolicy(.user))
    }

    func testModesAndVerdicts() {
        XCTAssertFalse(NetworkStatus(mode: .off, verdict: .metered).isMetered)
        XCTAssertTrue(NetworkStatus(mode: .on, verdict: .unmetered).isMetered)
        XCTAssertTrue(NetworkStatus(mode: .auto, verdict: .metered).isMetered)
        XCTAssertFalse(NetworkStatus(mode: .auto, verdict: .unknown).isMetered, "no NetworkManager: unmetered")
        XCTAssertEqual(NetworkStatus(mode: .auto, verdict: .unknown).label, "auto (unknown)")
        XCTAssertEqual(NetworkStatus(mode: .on, limit: 512_000).label, "on, cap 500 KiB/s")
        XCTAssertEqual(MeteredMode.off.next, .on)
        XCTAssertEqual(MeteredMode.on.next, .auto)
        XCTAssertEqual(MeteredMode.auto.next, .off)
    }

    func testProbeOutputParsing() {
        XCTAssertEqual(MeteredVerdict(probeOutput: "u 1\n"), .metered)
        XCTAssertEqual(MeteredVerdict(probeOutput: "u 3"), .metered)
        XCTAssertEqual(MeteredVerdict(probeOutput: "u 2"), .unmetered)
        XCTAssertEqual(MeteredVerdict(probeOutput: "u 4"), .unmetered)
        XCTAssertEqual(MeteredVerdict(probeOutput: "u 0"), .unknown)
        XCTAssertEqual(MeteredVerdict(probeOutput: "GENERAL.METERED:yes (guessed)"), .metered)
        XCTAssertEqual(MeteredVerdict(probeOutput: "GENERAL.METERED:no"), .unmetered)
        XCTAssertEqual(MeteredVerdict(probeOutput: "guess-yes"), .metered)
        XCTAssertEqual(MeteredVerdict(probeOutput: "no"), .unmetered)
        XCTAssertEqual(MeteredVerdict(probeOutput: ""), .unknown)
    }
}
