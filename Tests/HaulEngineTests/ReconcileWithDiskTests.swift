import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// What a download read from the state is once compared with its `.part` on disk.
final class ReconcileWithDiskTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// A download in pieces of 1,000 bytes, named `x.bin` in `directory`, whose map claims
    /// bytes up to 700.
    func download(in directory: String) -> Download {
        var d = Download(id: DownloadID(rawValue: "aaaaaa"), url: "http://h/x.bin", directory: directory, queueOrder: 1)
        d.fileName = "x.bin"
        d.totalBytes = 1000
        d.segments = [Segment(start: 0, end: 500, received: 300), Segment(start: 500, end: 1000, received: 200)]
        return d
    }

    func testAMapThatClaimsBytesPastThePartsEndIsDropped() throws {
        let dir = TestDirectory()
        try Data(count: 100).write(to: URL(fileURLWithPath: dir.path + "/x.bin.part"))
        var cut = download(in: dir.path)
        XCTAssertTrue(Engine.reconcileWithDisk(&cut, now: now))
        XCTAssertNil(cut.segments, "the .part was emptied or cut since the map was saved")
        XCTAssertEqual(cut.receivedBytes, 100)

        try Data(count: 700).write(to: URL(fileURLWithPath: dir.path + "/x.bin.part"))
        var whole = download(in: dir.path)
        _ = Engine.reconcileWithDisk(&whole, now: now)
        XCTAssertEqual(whole.segments?.count, 2, "a map within the .part stays")
        XCTAssertEqual(whole.receivedBytes, 500)
    }

    func testTheFurthestByteAMapClaims() {
        XCTAssertEqual([Segment]().furthestReceived, 0)
        XCTAssertEqual([Segment(start: 0, end: 10, received: 0), Segment(start: 10, end: 20)].furthestReceived, 0)
        XCTAssertEqual(
            [Segment(start: 0, end: 10, received: 4), Segment(start: 10, end: 20, received: 0)].furthestReceived, 4)
        XCTAssertEqual(
            [Segment(start: 0, end: 10, received: 10), Segment(start: 10, end: 20, received: 3)].furthestReceived, 13)
    }
}
