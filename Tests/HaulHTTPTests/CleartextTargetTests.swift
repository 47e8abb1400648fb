import HaulCore
import XCTest

@testable import HaulHTTP

/// What a plain `http://` URL becomes on the wire: no server needed.
final class CleartextTargetTests: XCTestCase {
    func testHostHeaderBracketsAnIPv6LiteralAndOmitsPort80() throws {
        let v6 = try XCTUnwrap(CleartextHTTPClient.Target(url: "http://[::1]:8080/a%20b?x=1"))
        XCTAssertEqual(v6.host, "::1")
        XCTAssertEqual(v6.hostHeader, "[::1]:8080")
        XCTAssertEqual(v6.uri, "/a%20b?x=1")
        XCTAssertEqual(
            try XCTUnwrap(CleartextHTTPClient.Target(url: "http://example.org/f.bin")).hostHeader, "example.org")
        XCTAssertEqual(
            try XCTUnwrap(CleartextHTTPClient.Target(url: "http://127.0.0.1:18555/f.bin")).hostHeader, "127.0.0.1:18555"
        )
        XCTAssertNil(CleartextHTTPClient.Target(url: "https://example.org/f.bin"))
    }
}

extension CleartextHTTPClient.Target {
    /// The target of `url`, as a transfer makes it from the URL it splits.
    init?(url: String) {
        guard let parts = URLParts(url) else { return nil }
        self.init(parts: parts)
    }
}
