import XCTest

@testable import HaulHTTP

/// `haul refresh`: whether a new link serves the file the download has bytes of.
final class LinkCheckTests: XCTestCase {
    func head(_ status: Int, _ fields: [(String, String)]) -> ResponseHead {
        ResponseHead(status: status, headers: fields)
    }

    func testANewLinkServesTheSameFileByETagOrSizeAndDateOrSizeAlone() {
        let ranged = [("Content-Range", "bytes 0-0/1000"), ("Content-Length", "1")]
        // The same strong ETag.
        XCTAssertEqual(
            LinkCheck.compare(head(206, ranged + [("ETag", "\"v1\"")]), etag: "\"v1\"", lastModified: nil, size: 1000),
            .sameFile)
        // A weak ETag proves nothing; the date and size do.
        XCTAssertEqual(
            LinkCheck.compare(
                head(206, ranged + [("ETag", "W/\"v1\"")]), etag: "W/\"v1\"", lastModified: nil, size: 1000),
            .otherFile(size: 1000, was: 1000))
        let date = "Sun, 06 Nov 2044 08:49:37 GMT"
        XCTAssertEqual(
            LinkCheck.compare(
                head(206, ranged + [("ETag", "\"node-b\""), ("Last-Modified", date)]), etag: "\"node-a\"",
                lastModified: date, size: 1000), .sameFile, "another CDN node's ETag, the same size and date")
        XCTAssertEqual(
            LinkCheck.compare(head(206, ranged + [("Last-Modified", date)]), etag: nil, lastModified: date, size: 999),
            .otherFile(size: 1000, was: 999))
        // No validators before: the size decides, from Content-Length when the server sends it all.
        XCTAssertEqual(
            LinkCheck.compare(head(200, [("Content-Length", "1000")]), etag: nil, lastModified: nil, size: 1000),
            .sameFile)
        XCTAssertEqual(
            LinkCheck.compare(head(200, [("Content-Length", "20")]), etag: nil, lastModified: nil, size: 24),
            .otherFile(size: 20, was: 24))
        // Validators before and none now: another file.
        XCTAssertEqual(
            LinkCheck.compare(head(206, ranged), etag: "\"v1\"", lastModified: nil, size: 1000),
            .otherFile(size: 1000, was: 1000))
    }
}
