import XCTest

@testable import HaulCore

/// A URL already in canonical form is returned as the full check would return it, and the
/// shortcut takes nothing the full check refuses.
final class DownloadURLShortcutTests: XCTestCase {
    func testTheShortcutAgreesWithTheFullCheck() {
        let hosts = ["example.org", "127.0.0.1", "EXAMPLE.org", "a-b_c.d", "", "exa mple.org", "bücher.de", "[::1]"]
        let ports = ["", ":80", ":0080", ":65535", ":65536", ":0", ":", ":8a", ":123456"]
        let targets = [
            "", "/", "/a.iso", "/dir/a%20b.bin?x=1&y=2", "/%zz", "/%4", "/a b", "/é", "?q", "/a#frag",
            "/~u/(1)+x;y=z:@",
            "/\"q\"", "/a|b", "/a^b", "/%41%2f",
        ]
        var shortcuts = 0
        for scheme in ["http://", "https://", "HTTP://", "ftp://", "http:/"] {
            for host in hosts {
                for port in ports {
                    for target in targets {
                        let text = scheme + host + port + target
                        let full = try? DownloadURL.validateFully(text)
                        guard let fast = DownloadURL.canonical(text) else { continue }
                        shortcuts += 1
                        XCTAssertEqual(fast, full, text)
                    }
                }
            }
        }
        XCTAssertGreaterThan(shortcuts, 100)
        XCTAssertNil(DownloadURL.canonical("http://u:p@example.org/"), "user info takes the full path")
    }
}
