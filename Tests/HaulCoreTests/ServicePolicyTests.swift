import Foundation
import XCTest

@testable import HaulCore

/// The pure parts of running as a service: the status line and how hooks are called.
final class ServicePolicyTests: XCTestCase {
    func sample(_ id: String, _ rate: Double) -> ProgressSample {
        ProgressSample(
            id: DownloadID(rawValue: id), receivedBytes: 0, totalBytes: nil, bytesPerSecond: rate, etaSeconds: nil)
    }

    func testTheStatusLineCountsDownloadsThatSentAFreshSampleAndAddsTheirRates() {
        var status = ServiceStatus()
        XCTAssertEqual(status.line(at: 0), "idle")
        status.record(sample("aaaaaa", 1_048_576), at: 10)
        status.record(sample("bbbbbb", 209_715), at: 11)
        XCTAssertEqual(status.line(at: 11), "2 downloading, \(Formatting.rate(1_258_291))")
        status.forget(DownloadID(rawValue: "bbbbbb"))
        XCTAssertEqual(status.line(at: 11), "1 downloading, \(Formatting.rate(1_048_576))")
        // A download that went quiet no longer counts.
        XCTAssertEqual(status.line(at: 10 + ServiceStatus.freshness), "idle")
    }

    func testHooksAreCalledAsHaulOrAsAria2CallsThem() {
        var hooks = HookSettings(onComplete: ["upload", "--fast"], onQueueEmpty: ["systemctl", "suspend"])
        XCTAssertEqual(
            hooks.invocation(.complete, gid: "00000000001a2b3c", path: "/d/f.iso"), ["upload", "--fast", "/d/f.iso"])
        XCTAssertNil(hooks.invocation(.error, gid: "00000000001a2b3c", path: "/d/f.iso"))
        hooks.arguments = .aria2
        XCTAssertEqual(
            hooks.invocation(.complete, gid: "00000000001a2b3c", path: "/d/f.iso"),
            ["upload", "--fast", "00000000001a2b3c", "1", "/d/f.iso"])
        // The queue's hook is about no download: it gets no arguments either way.
        XCTAssertEqual(hooks.invocation(.queueEmpty, gid: "", path: ""), ["systemctl", "suspend"])
    }

    func testAProcesssOwnFlagsTakeTheSavedHooksPlaceOnlyWhereGiven() {
        let saved = HookSettings(onComplete: ["saved"], onError: ["alarm"], arguments: .aria2, timeLimit: 30)
        let flags = HookSettings(onComplete: ["mine"], arguments: .haul, timeLimit: 600)
        let merged = saved.overridden(by: flags, argumentsGiven: false, timeLimitGiven: false)
        XCTAssertEqual(merged, HookSettings(onComplete: ["mine"], onError: ["alarm"], arguments: .aria2, timeLimit: 30))
        XCTAssertEqual(
            saved.overridden(by: flags, argumentsGiven: true, timeLimitGiven: true).arguments, .haul)
        XCTAssertEqual(saved.overridden(by: nil, argumentsGiven: true, timeLimitGiven: true), saved)
    }

    func testSavedHooksReadBackAndAnEmptyCommandIsNone() throws {
        let hooks = HookSettings(onComplete: ["a", "b c"], onQueueEmpty: ["z"], arguments: .aria2, timeLimit: 5)
        XCTAssertEqual(try JSONDecoder().decode(HookSettings.self, from: JSONEncoder().encode(hooks)), hooks)
        let odd = try JSONDecoder().decode(
            HookSettings.self, from: Data(#"{"onComplete":[],"arguments":"other","timeLimit":0}"#.utf8))
        XCTAssertEqual(odd, HookSettings(timeLimit: 1))
    }
}
