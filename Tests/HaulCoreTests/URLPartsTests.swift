import Foundation
import HaulCore
import XCTest

final class URLPartsTests: XCTestCase {
    func testSplitsIntoWhatARequestNeeds() throws {
        // (url, scheme, host, port, path, query)
        let cases: [(String, String, String, Int?, String, String?)] = [
            ("http://example.org/file.iso", "http", "example.org", nil, "/file.iso", nil),
            (
                "HTTP://Host.Example:8080/a/b.tar.gz?x=1&y=%20#frag", "http", "Host.Example", 8080, "/a/b.tar.gz",
                "x=1&y=%20"
            ),
            ("https://example.org", "https", "example.org", nil, "", nil),
            ("http://example.org?q", "http", "example.org", nil, "", "q"),
            ("http://[::1]:8080/p?q", "http", "::1", 8080, "/p", "q"),
            ("http://h/a b", "http", "h", nil, "/a%20b", nil),
            ("http://h/x|y{z}", "http", "h", nil, "/x%7Cy%7Bz%7D", nil),
            ("http://h/%E2%82%AC?a=€", "http", "h", nil, "/%E2%82%AC", "a=%E2%82%AC"),
            ("http://bücher.example/ü.iso", "http", "bücher.example", nil, "/%C3%BC.iso", nil),
        ]
        for (url, scheme, host, port, path, query) in cases {
            let parts = try XCTUnwrap(URLParts(url), url)
            XCTAssertEqual(parts.scheme, scheme, url)
            XCTAssertEqual(parts.host, host, url)
            XCTAssertEqual(parts.port, port, url)
            XCTAssertEqual(parts.path, path, url)
            XCTAssertEqual(parts.query, query, url)
        }
    }

    func testRequestTargetAndCredentials() throws {
        XCTAssertEqual(URLParts("http://h")?.requestTarget, "/")
        XCTAssertEqual(URLParts("http://h?x=1")?.requestTarget, "/?x=1")
        XCTAssertEqual(URLParts("http://h/a%20b?c#d")?.requestTarget, "/a%20b?c")
        let parts = try XCTUnwrap(URLParts("http://al%20ice:p%3Aw:d@h/x"))
        XCTAssertEqual(parts.credentials?.user, "al ice")
        XCTAssertEqual(parts.credentials?.password, "p:w:d")
        XCTAssertEqual(URLParts("http://bob@h/")?.credentials?.password, "")
        XCTAssertNil(URLParts("http://:pw@h/")?.credentials, "no user name, no Basic")
        XCTAssertNil(URLParts("http://h/")?.credentials)
        XCTAssertEqual(URLParts("http://a%40b@h:81/p%41")?.credentials?.user, "a@b", "an escape in the user is one")
        XCTAssertEqual(URLParts("http://a%40b@h:81/p%41")?.host, "h")
    }

    func testRefusesWhatIsNotSchemeSlashSlashHost() {
        for url in [
            "", "example.org/x", "http:/x", "mailto:a@b", "http://", "http://:80/x", "http://h:8a/x",
            "http://h:99999/x",
            "http://h:123456/x", "http://[::1/x", "http://[::1]x/", "1http://h/", "http://h%41/x", "http://h x/",
            "http://h\u{7F}/x", "http://h:8%30/x", "http://u@h%2E/x", "http://h\t/x", "http://h\n", "http:x",
        ] {
            XCTAssertNil(URLParts(url), url)
        }
    }
}
