import Foundation
import HaulTestSupport
import XCTest

@testable import HaulCore

/// The fast URL check never accepts what Foundation's parser (the rest of `DownloadURL.validate`)
/// would refuse, and it does take the common shapes.
final class PlainURLCheckTests: XCTestCase {
    /// What `validate` says without the fast check.
    private func acceptedByFoundation(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else { return false }
        if let port = components.port, !(1...65535).contains(port) { return false }
        return true
    }

    func testCommonURLsTakeTheFastPath() {
        for url in [
            "http://127.0.0.1:18555/small/f1.bin", "https://example.org/a.iso", "HTTPS://Example.ORG:443/",
            "http://h", "http://h:8080", "http://h?x=1",
            "https://cdn.example.org/path/to/file%20name.tar.gz?sig=a%2Fb&t=1;x=y",
            "http://a-b.c/~user/(1)/!$&'*+,;=:@/x",
        ] {
            XCTAssertTrue(PlainURLCheck.isPlainHTTPURL(url), url)
            XCTAssertTrue(acceptedByFoundation(url), url)
        }
    }

    func testUnusualShapesAreLeftToFoundation() {
        for url in [
            "http://user:pw@h/x", "http://[::1]/x", "http://h/x#frag", "http://h:0/", "http://h:65536/", "http://h:/x",
            "http://-h/", "http:///x", "ftp://h/x", "http://h/a b", "http://h/%zz", "http://h/%4", "http://h/é",
            "http://h/<x>",
            "httpx://h/", "http:/h/", "http://h\\x",
        ] {
            XCTAssertFalse(PlainURLCheck.isPlainHTTPURL(url), url)
        }
    }

    /// Random strings from an alphabet of the characters that matter: whatever the fast check
    /// accepts, Foundation accepts too. (The reverse does not hold: Foundation percent-encodes
    /// characters such as `<` and takes the URL; the fast check leaves those to it.)
    func testNeverAcceptsWhatFoundationRefuses() {
        var rng = SeededGenerator.fromEnvironment("PlainURLCheckTests")
        let prefixes = ["http://", "https://", "HTTP://", "http:/", "http://h", "https://a.b:8", "http://x-y.z/"]
        let alphabet = Array("aZ09.-_~!$&'()*+,;=:@/?%#[]<>\"{}|\\^` é\u{7F}fF")
        var accepted = 0
        for _ in 0..<20_000 {
            var url = prefixes.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...12, using: &rng) { url.append(alphabet.randomElement(using: &rng)!) }
            guard PlainURLCheck.isPlainHTTPURL(url) else { continue }
            accepted += 1
            XCTAssertTrue(
                acceptedByFoundation(url), "fast check accepted \(url.debugDescription), Foundation refuses it")
        }
        XCTAssertGreaterThan(accepted, 1000, "the generator should hit the fast path often")
    }
}
