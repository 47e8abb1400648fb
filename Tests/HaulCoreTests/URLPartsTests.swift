import Foundation
import HaulCore
import XCTest

final class URLPartsTests: XCTestCase {
    func testSplitsLikeURLComponents() throws {
        let urls = [
            "http://example.org/file.iso", "HTTP://Host.Example:8080/a/b.tar.gz?x=1&y=%20#frag",
            "https://example.org", "http://example.org?q", "http://example.org#f", "http://h:/x",
            "http://[::1]:8080/p?q", "http://[fe80::1]/", "http://u:p%40x@h/x", "http://a@b@host/x",
            "http://example.org/Ω.bin", "http://h/a b", "http://h/%zz", "http://h/x|y{z}", "http://h/%E2%82%AC?a=€",
            "http://h/a;b=c/d:e@f", "http://h//double//slash", "http://h/?a?b/c", "http://bücher.example/ü.iso",
        ]
        for url in urls {
            let parts = try XCTUnwrap(URLParts(url), url)
            let components = try XCTUnwrap(URLComponents(string: url), url)
            XCTAssertEqual(parts.scheme, components.scheme?.lowercased(), url)
            XCTAssertEqual(
                parts.host, components.host.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }, url)
            XCTAssertEqual(parts.port, components.port, url)
            XCTAssertEqual(parts.path, components.percentEncodedPath, url)
            XCTAssertEqual(parts.query, components.percentEncodedQuery, url)
            XCTAssertEqual(parts.credentials?.user, components.user, url)
            if let password = components.password { XCTAssertEqual(parts.credentials?.password, password, url) }
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
    }

    func testRefusesWhatIsNotSchemeSlashSlashHost() {
        for url in [
            "", "example.org/x", "http:/x", "mailto:a@b", "http://", "http://:80/x", "http://h:8a/x",
            "http://h:99999/x",
            "http://h:123456/x", "http://[::1/x", "http://[::1]x/", "1http://h/", "http://h%41/x", "http://h x/",
            "http://h\u{7F}/x",
        ] {
            XCTAssertNil(URLParts(url), url)
        }
    }
}
