import HaulCore
import HaulHTTP
import XCTest

/// Every range response of a segmented download is checked before it is written.
final class RangeResponseCheckTests: XCTestCase {
    func head(_ status: Int, _ fields: [(String, String)]) -> ResponseHead {
        ResponseHead(status: status, fields: fields.map { HTTPField(name: $0.0, value: $0.1) })
    }

    func check(_ head: ResponseHead, asked: Range<Int64> = 100..<200) -> RangeVerdict {
        RangeResponseCheck.check(head, asked: asked, total: 1000, etag: "\"v1\"", lastModified: nil)
    }

    func testExactlyTheRangeAskedForOfTheSameFileIsWritten() {
        let good = head(206, [("Content-Range", "bytes 100-199/1000"), ("Content-Length", "100"), ("ETag", "\"v1\"")])
        XCTAssertEqual(check(good), .accepted)
    }

    func testAnyOtherRangeIsRefused() {
        for range in ["bytes 0-99/1000", "bytes 100-299/1000", "bytes 100-198/1000", "garbage"] {
            guard case .wrongRange = check(head(206, [("Content-Range", range), ("ETag", "\"v1\"")])) else {
                return XCTFail(range)
            }
        }
        guard case .wrongRange = check(head(206, [("ETag", "\"v1\"")])) else { return XCTFail("no Content-Range") }
        let lying = head(206, [("Content-Range", "bytes 100-199/1000"), ("Content-Length", "50")])
        guard case .wrongRange = check(lying) else { return XCTFail("a length that does not match the range") }
    }

    func testAnotherValidatorOrSizeMeansTheFileChanged() {
        XCTAssertEqual(check(head(206, [("Content-Range", "bytes 100-199/1000"), ("ETag", "\"v2\"")])), .fileChanged)
        XCTAssertEqual(check(head(206, [("Content-Range", "bytes 100-199/2000")])), .fileChanged)
        XCTAssertEqual(check(head(200, [("Content-Length", "1000"), ("ETag", "\"v2\"")])), .fileChanged)
        XCTAssertEqual(check(head(200, [("Content-Length", "900")])), .fileChanged)
    }

    func testTheWholeFileOrAnErrorTurnsTheConnectionAway() {
        XCTAssertEqual(
            check(head(200, [("Content-Length", "1000"), ("ETag", "\"v1\"")])), .refused(.init(.rangesRefused)))
        XCTAssertEqual(check(head(429, [("Retry-After", "5")])), .refused(.init(.status(429), retryAfter: "5")))
        XCTAssertEqual(check(head(503, [])), .refused(.init(.status(503))))
        XCTAssertEqual(check(head(403, [])), .refused(.init(.status(403))))
    }
}
