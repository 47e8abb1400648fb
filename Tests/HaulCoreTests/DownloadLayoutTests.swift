import FoundationEssentials
import HaulCore
import XCTest

final class DownloadLayoutTests: XCTestCase {
    /// 100,000 downloads are held at once: a field added where it leaves padding, or an optional
    /// number stored as one, grows every one of them.
    func testADownloadIsHeldInTwoHundredBytes() {
        XCTAssertLessThanOrEqual(MemoryLayout<Download>.stride, 200)
    }

    func testTheOptionalNumbersKeepNoneApartFromEveryValue() {
        var d = Download(id: DownloadID(rawValue: "000001"), url: "http://h/f", directory: "/d", queueOrder: 1)
        XCTAssertNil(d.totalBytes)
        XCTAssertNil(d.activeConnections)
        XCTAssertNil(d.finishedAt)
        d.totalBytes = 0
        d.activeConnections = 0
        d.finishedAt = Date(timeIntervalSinceReferenceDate: 0)
        d.retries = 3
        XCTAssertEqual(d.totalBytes, 0)
        XCTAssertEqual(d.activeConnections, 0)
        XCTAssertEqual(d.finishedAt, Date(timeIntervalSinceReferenceDate: 0))
        XCTAssertEqual(d.retries, 3)
        d.totalBytes = nil
        d.activeConnections = nil
        d.finishedAt = nil
        var fresh = Download(id: d.id, url: d.url, directory: d.directory, queueOrder: 1, addedAt: d.addedAt)
        fresh.retries = 3
        XCTAssertEqual(d, fresh, "a number set and cleared again is as it was")
    }
}
