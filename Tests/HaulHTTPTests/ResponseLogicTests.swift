import Foundation
import HaulCore
import XCTest

@testable import HaulHTTP

final class ContentRangeTests: XCTestCase {
    func testParses() {
        XCTAssertEqual(ContentRange("bytes 100-199/1000"), ContentRange(first: 100, last: 199, complete: 1000))
        XCTAssertEqual(ContentRange("bytes 0-9/*"), ContentRange(first: 0, last: 9, complete: nil))
        XCTAssertEqual(ContentRange("bytes */1000"), ContentRange(first: nil, last: nil, complete: 1000))
    }

    func testRejectsNonsense() {
        XCTAssertNil(ContentRange("bytes 10-5/100"))
        XCTAssertNil(ContentRange("bytes 0-100/100"))
        XCTAssertNil(ContentRange("items 0-1/2"))
        XCTAssertNil(ContentRange("bytes */*"))
    }
}

final class ResponseInterpreterTests: XCTestCase {
    func head(_ status: Int, _ headers: [(String, String)] = []) -> ResponseHead {
        ResponseHead(status: status, headers: headers)
    }

    func testHeaderNamesAreLookedUpLowercase() {
        let names = ["Content-Length", "ETAG", "last-modified", "X-Very-Long-Header-Name-Past-Small-Strings", "", "A"]
        let h = head(200, names.enumerated().map { ($1, "v\($0)") })
        for (i, name) in names.enumerated() {
            XCTAssertEqual(h[name.lowercased()], "v\(i)", name)
        }
        XCTAssertNil(h["content-type"])
        XCTAssertNil(h["content-lengthx"])
        XCTAssertNil(h["content-lengtg"])
        XCTAssertEqual(head(200, [("ETag", "a"), ("etag", "b")])["etag"], "b", "a repeated header: the last one")
        XCTAssertEqual(head(200, [("ETag", "a"), ("Date", "b")])["etag"], "a")
        // Only ASCII letters are folded (field names are ASCII tokens; NIO refuses others).
        let odd = head(200, [("X-Ünïcode-İ", "u"), ("[Z]", "z")])
        XCTAssertEqual(odd["x-Ünïcode-İ"], "u")
        XCTAssertNil(odd["x-ünïcode-i̇"])
        XCTAssertEqual(odd["[z]"], "z")
        XCTAssertNil(odd["{z}"], "bytes next to the letters are not folded into them")
    }

    func testFreshDownload() {
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                head(200, [("Content-Length", "10")]), requestedOffset: 0, previousETag: nil,
                previousLastModified: nil),
            .write(offset: 0, total: 10, startOver: nil))
    }

    func testMatchingPartialContentAppends() {
        let h = head(206, [("Content-Range", "bytes 500-999/1000")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(h, requestedOffset: 500, previousETag: "\"a\"", previousLastModified: nil),
            .write(offset: 500, total: 1000, startOver: nil))
    }

    /// A server that ignores `If-Range` sends a range of whatever it has now: another ETag, or
    /// (without validators) another size, is another version, and the `.part` is not kept.
    func testARangeOfAChangedFileStartsOver() {
        let otherTag = head(206, [("Content-Range", "bytes 500-999/1000"), ("ETag", "\"b\"")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                otherTag, requestedOffset: 500, previousETag: "\"a\"", previousLastModified: nil, previousSize: 1000),
            .restart(.remoteChanged))
        let otherSize = head(206, [("Content-Range", "bytes 500-1000/1001")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                otherSize, requestedOffset: 500, previousETag: nil, previousLastModified: nil, previousSize: 1000),
            .restart(.remoteChanged))
        let sameFile = head(206, [("Content-Range", "bytes 500-999/1000"), ("ETag", "\"a\"")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                sameFile, requestedOffset: 500, previousETag: "\"a\"", previousLastModified: nil, previousSize: 1000),
            .write(offset: 500, total: 1000, startOver: nil))
        let weakened = head(206, [("Content-Range", "bytes 500-999/1000"), ("ETag", "W/\"a\"")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                weakened, requestedOffset: 500, previousETag: "\"a\"", previousLastModified: nil, previousSize: 1000),
            .write(offset: 500, total: 1000, startOver: nil), "the same tag, weak or strong")
        let unknownTotal = head(206, [("Content-Range", "bytes 500-999/*")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                unknownTotal, requestedOffset: 500, previousETag: nil, previousLastModified: nil, previousSize: 1000),
            .write(offset: 500, total: nil, startOver: nil))
    }

    func testMismatchedPartialContentRestarts() {
        let h = head(206, [("Content-Range", "bytes 0-999/1000")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(h, requestedOffset: 500, previousETag: nil, previousLastModified: nil),
            .restart(.rangeMismatch))
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                head(206), requestedOffset: 500, previousETag: nil, previousLastModified: nil), .restart(.rangeMismatch)
        )
    }

    func testFullResponseToARangeStartsOverAndSaysWhy() {
        let changed = head(200, [("ETag", "\"b\""), ("Content-Length", "7")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                changed, requestedOffset: 3, previousETag: "\"a\"", previousLastModified: nil),
            .write(offset: 0, total: 7, startOver: .remoteChanged))
        let same = head(200, [("ETag", "\"a\""), ("Content-Length", "7")])
        XCTAssertEqual(
            ResponseInterpreter.interpret(same, requestedOffset: 3, previousETag: "\"a\"", previousLastModified: nil),
            .write(offset: 0, total: 7, startOver: .rangesIgnored))
    }

    func testRangeNotSatisfiableAtFullSizeMeansDone() {
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                head(416, [("Content-Range", "bytes */1000")]), requestedOffset: 1000, previousETag: nil,
                previousLastModified: nil),
            .alreadyComplete(total: 1000))
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                head(416, [("Content-Range", "bytes */900")]), requestedOffset: 1000, previousETag: nil,
                previousLastModified: nil),
            .restart(.partLargerThanRemote))
    }

    func testFailuresCarryTheirReason() {
        XCTAssertEqual(
            ResponseInterpreter.interpret(head(410), requestedOffset: 0, previousETag: nil, previousLastModified: nil),
            .fail(TransferFailure(.status(410), isTransient: false)))
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                head(503, [("Retry-After", "7")]), requestedOffset: 0, previousETag: nil, previousLastModified: nil),
            .fail(TransferFailure(.status(503), isTransient: true, retryAfter: "7")))
        XCTAssertEqual(
            ResponseInterpreter.interpret(
                head(302, [("Location", "/x")]), requestedOffset: 0, previousETag: nil, previousLastModified: nil),
            .redirect(location: "/x"))
    }

    func testIfRangePrefersStrongETag() {
        XCTAssertEqual(ResponseInterpreter.ifRangeValidator(etag: "\"x\"", lastModified: "Mon"), "\"x\"")
        XCTAssertEqual(ResponseInterpreter.ifRangeValidator(etag: "W/\"x\"", lastModified: "Mon"), "Mon")
        XCTAssertNil(ResponseInterpreter.ifRangeValidator(etag: nil, lastModified: nil))
    }
}

final class WriteBehindTests: XCTestCase {
    func testEveryChunkIsHandedOnOnceInOrder() {
        var behind = WriteBehind(from: 100, chunk: 10)
        var ranges: [Range<Int64>] = []
        for position in stride(from: Int64(103), through: 160, by: 3) {
            if let range = behind.written(upTo: position) { ranges.append(range) }
        }
        XCTAssertEqual(ranges, [100..<112, 112..<124, 124..<136, 136..<148, 148..<160])
        XCTAssertEqual(behind.mark, 160)
    }

    func testLessThanAChunkWaits() {
        var behind = WriteBehind(from: 0, chunk: 8 << 20)
        XCTAssertNil(behind.written(upTo: (8 << 20) - 1))
        XCTAssertEqual(behind.written(upTo: 9 << 20), 0..<(9 << 20))
        XCTAssertNil(behind.written(upTo: 10 << 20))
    }
}
