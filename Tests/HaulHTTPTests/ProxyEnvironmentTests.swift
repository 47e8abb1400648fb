import XCTest

@testable import HaulHTTP

final class ProxyEnvironmentTests: XCTestCase {
    func testProxyEnvironment() {
        let env = ProxyEnvironment(environment: [
            "http_proxy": "http://p:3128", "HTTPS_PROXY": "proxy.example:8080", "no_proxy": "localhost,.internal",
        ])
        XCTAssertEqual(env.endpoint(for: "http://example.org/x")?.port, 3128)
        XCTAssertEqual(env.endpoint(for: "https://example.org/x")?.host, "proxy.example")
        XCTAssertNil(env.endpoint(for: "http://localhost/x"))
        XCTAssertNil(env.endpoint(for: "https://a.internal/x"))
        XCTAssertNil(ProxyEnvironment(environment: ["HTTP_PROXY": "http://p:1"]).http)
    }
}
