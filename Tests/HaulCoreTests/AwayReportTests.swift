import Foundation
import XCTest

@testable import HaulCore

final class AwayReportTests: XCTestCase {
    func download(_ id: String, _ kind: DownloadState.Kind, cause: PauseCause.Kind? = nil) -> Download {
        var d = Download(id: DownloadID(rawValue: id), url: "http://h/\(id).bin", directory: "/dl", queueOrder: 0)
        d.state = DownloadState.Parts(kind: kind, pauseCause: cause, failureReason: .status(404)).resolved
        return d
    }

    func testOneEntryPerDownloadWithItsLatestOutcome() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var report = AwayReport(since: now)
        XCTAssertFalse(report.record(download("000001", .downloading), at: now))
        XCTAssertTrue(report.record(download("000001", .paused, cause: .metered), at: now))
        XCTAssertEqual(report.count(.metered), 1)
        XCTAssertFalse(
            report.record(download("000001", .paused, cause: .metered), at: now), "the same outcome twice is one entry")
        XCTAssertTrue(report.record(download("000001", .downloading), at: now), "resumed: no longer waiting")
        XCTAssertTrue(report.isEmpty)
        report.record(download("000001", .finished), at: now)
        report.record(download("000002", .failed), at: now)
        XCTAssertFalse(report.record(download("000003", .paused, cause: .user), at: now), "a user's pause is not news")
        XCTAssertEqual(report.entries.map(\.outcome), [.finished, .failed])
        XCTAssertEqual(report.entries.last?.reason, "not found on the server (HTTP 404)")
        XCTAssertEqual(report.entries.first?.name, "000001.bin")
    }

    func testTheReportIsBounded() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var report = AwayReport(since: now)
        for i in 0..<(AwayReport.capacity + 10) {
            report.record(download(String(format: "%06x", i), .finished), at: now)
        }
        XCTAssertEqual(report.entries.count, AwayReport.capacity)
        XCTAssertEqual(report.entries.first?.id.rawValue, String(format: "%06x", 10), "the oldest go first")
    }
}
