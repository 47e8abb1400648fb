import XCTest

@testable import HaulCore

/// Proxies as people name them, and which one a request takes.
final class ProxySettingsTests: XCTestCase {
    func testProxiesAreReadAsCurlWritesThemAndShownWithoutTheirPassword() throws {
        let http = try ProxyAddress(parsing: "http://me:s3cret@proxy.lan:3128")
        XCTAssertEqual(http, ProxyAddress(kind: .http, host: "proxy.lan", port: 3128, user: "me", password: "s3cret"))
        XCTAssertEqual(http.display, "http://me:***@proxy.lan:3128")
        XCTAssertEqual(try ProxyAddress(parsing: "proxy.lan").port, 8080, "a bare host is an http proxy")
        XCTAssertEqual(try ProxyAddress(parsing: "socks5h://[::1]").display, "socks5h://[::1]:1080")
        XCTAssertEqual(try ProxyAddress(parsing: "socks5://u:p@p:1").display, "socks5://u:***@p:1")
        XCTAssertEqual(try ProxyChoice(parsing: "none"), .direct)
        for (bad, sentence) in [
            ("ftp://p:1", "haul speaks to http://, socks5:// and socks5h:// proxies"),
            ("https://p:1", "TLS to the proxy itself (https://) is not supported"),
            ("http://p:1/path", "is not a proxy"),
        ] {
            XCTAssertThrowsError(try ProxyAddress(parsing: bad)) { error in
                XCTAssertTrue((error as? InputError)?.message.contains(sentence) == true, "\(error)")
            }
        }
    }

    func testTheDownloadsOwnThenAHostRuleThenTheGlobalOneThenTheEnvironment() throws {
        let office = ProxyChoice.through(try ProxyAddress(parsing: "http://office:3128"))
        let tor = ProxyChoice.through(try ProxyAddress(parsing: "socks5h://127.0.0.1:9050"))
        let settings = ProxySettings(
            global: office,
            hosts: [.init(pattern: "*.onion.example", choice: tor), .init(pattern: "intranet", choice: .direct)])
        XCTAssertEqual(settings.choice(forHost: "a.onion.example", own: nil), tor)
        XCTAssertEqual(settings.choice(forHost: "onion.example", own: nil), tor)
        XCTAssertEqual(settings.choice(forHost: "INTRANET", own: nil), .direct)
        XCTAssertEqual(settings.choice(forHost: "example.org", own: nil), office)
        XCTAssertEqual(settings.choice(forHost: "a.onion.example", own: .direct), .direct)
        XCTAssertNil(ProxySettings().choice(forHost: "example.org", own: nil), "the environment decides")
    }

    /// aria2's `all-proxy` option (RPC calls, input files) is the download's own proxy.
    func testAria2sAllProxyOptionIsTheDownloadsOwn() throws {
        var request = DownloadRequest(url: "http://h/f", directory: "/d")
        try Aria2Options.apply([("all-proxy", "socks5h://p:1080")], to: &request) { $0 }
        XCTAssertEqual(request.proxy, .through(ProxyAddress(kind: .socks5h, host: "p", port: 1080)))
        try Aria2Options.apply([("all-proxy", "")], to: &request) { $0 }
        XCTAssertEqual(request.proxy, .direct)
        XCTAssertThrowsError(try Aria2Options.apply([("all-proxy", "gopher://p")], to: &request) { $0 })
    }
}

/// Per-host settings: for each setting, the first rule for the host that has it.
final class HostSettingsTests: XCTestCase {
    func testEachSettingComesFromTheFirstRuleThatHasIt() throws {
        var hosts = HostSettings()
        hosts.update("cdn.example.org") { $0.connections = 2 }
        hosts.update("*.example.org") {
            $0.connections = 4
            $0.speedLimit = 500_000
            $0.headers = [try! RequestHeader.parse("User-Agent: Mozilla/5.0"), try! RequestHeader.parse("X-A: 1")]
        }
        hosts.update("CDN.example.org") { $0.headers = [try! RequestHeader.parse("x-a: 2")] }
        XCTAssertEqual(hosts.connections(for: "cdn.example.org"), 2)
        XCTAssertEqual(hosts.connections(for: "example.org"), 4)
        XCTAssertEqual(hosts.speedLimit(for: "cdn.example.org"), 500_000)
        XCTAssertEqual(hosts.headers(for: "cdn.example.org").map(\.value), ["2", "Mozilla/5.0"])
        XCTAssertNil(hosts.connections(for: "example.net"))
        XCTAssertEqual(hosts.headers(for: nil), [])
        hosts.update("cdn.example.org") { $0 = HostSettings.Rule(pattern: "cdn.example.org") }
        XCTAssertEqual(hosts.rules.map(\.pattern), ["*.example.org"], "an emptied rule is dropped")
    }
}
