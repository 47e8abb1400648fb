import Foundation
import HaulTestSupport
import XCTest

/// Downloads through the proxies people run: Debian's tinyproxy (HTTP, CONNECT for https) and
/// microsocks (SOCKS5), started here on loopback. Each logs what it carried, so a test sees which
/// proxy a download took.
final class ProxyTests: NginxCLITestCase {
    var children: [ChildProcess] = []
    var httpPort = 0
    var socksPort = 0
    var tinyproxyLog: String { dir.path + "/tinyproxy.log" }
    var microsocksLog: String { dir.path + "/microsocks.log" }

    override func setUp() async throws {
        try await super.setUp()
        for program in ["/usr/bin/tinyproxy", "/usr/bin/microsocks"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: program), "apt-get install tinyproxy microsocks")
        }
        (httpPort, socksPort) = try await startProxies(listen: "127.0.0.1", allow: "127.0.0.1", logs: "")
    }

    /// tinyproxy (with a login) and microsocks listening on `listen`; their logs are
    /// `tinyproxy<logs>.log` and `microsocks<logs>.log`. Returns their ports.
    func startProxies(listen: String, allow: String, logs: String) async throws -> (http: Int, socks: Int) {
        let (http, socks) = (FreePort.find(), FreePort.find())
        try """
        Port \(http)
        Listen \(listen)
        Timeout 60
        LogFile "\(dir.path)/tinyproxy\(logs).log"
        LogLevel Info
        MaxClients 200
        Allow \(allow)
        BasicAuth proxyuser proxypass
        """.write(toFile: dir.path + "/tinyproxy\(logs).conf", atomically: true, encoding: .utf8)
        children.append(
            try ChildProcess("/usr/bin/tinyproxy", ["-d", "-c", dir.path + "/tinyproxy\(logs).conf"], environment: [:]))
        children.append(
            try ChildProcess(
                "/usr/bin/microsocks", ["-i", listen, "-p", String(socks)], environment: [:],
                stdout: dir.path + "/microsocks\(logs).log", stderr: dir.path + "/microsocks\(logs).log"))
        try await waitUntil {
            FreePort.isListening(http, host: listen) && FreePort.isListening(socks, host: listen)
        }
        return (http, socks)
    }

    override func tearDown() async throws {
        for child in children { await child.terminate() }
        try await super.tearDown()
    }

    func succeed(_ arguments: [String]) async throws {
        let result = try await haul(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    var httpProxy: String { "http://proxyuser:proxypass@127.0.0.1:\(httpPort)" }

    func testTheGlobalProxyCarriesSegmentedDownloadsAndDownloadsOwnProxiesWin() async throws {
        try TestFiles.random(www + "/big.bin", size: 4_000_000)
        try TestFiles.random(www + "/small.bin", size: 200_000)
        var result = try await haul("proxy", httpProxy)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("proxy: http://proxyuser:***@127.0.0.1:\(httpPort)"), result.stdout)
        XCTAssertFalse(result.stdout.contains("proxypass"))
        // From the capped location, so more connections pay and are opened.
        try await succeed(["add", nginx.url("slow/big.bin")])
        try await succeed(["add", "--proxy", "socks5h://127.0.0.1:\(socksPort)", nginx.url("small.bin")])
        let listed = try await listJSON()
        XCTAssertEqual(
            Set(listed.compactMap { $0["proxy"] as? String }),
            ["http://proxyuser:***@127.0.0.1:\(httpPort)", "socks5h://127.0.0.1:\(socksPort)"])
        result = try await haul("run")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(sameFile(www + "/big.bin", downloads + "/big.bin"))
        XCTAssertTrue(sameFile(www + "/small.bin", downloads + "/small.bin"))
        // Several connections of the segmented download, each through the HTTP proxy.
        // (AsyncHTTPClient tunnels every request with CONNECT.)
        XCTAssertGreaterThan(
            log(tinyproxyLog).components(separatedBy: "CONNECT 127.0.0.1:\(nginx.port)").count - 1, 1, log(tinyproxyLog)
        )
        XCTAssertTrue(log(microsocksLog).contains("connected to 127.0.0.1:\(nginx.port)"), log(microsocksLog))
    }

    /// An https origin through each proxy: a CONNECT tunnel through tinyproxy, a SOCKS one through
    /// microsocks; the certificate is checked end to end.
    func testHTTPSOriginsThroughBothProxies() async throws {
        let certificate = try await TestCertificate.make(in: dir.subdirectory("tls"))
        let secure = try await NginxServer(root: www, tls: certificate, workDirectory: dir.subdirectory("tls-nginx"))
        defer { Task { await secure.stop() } }
        try TestFiles.random(www + "/s.bin", size: 300_000)
        try await succeed(["add", "--proxy", httpProxy, "-o", "via-http.bin", secure.url("s.bin")])
        try await succeed([
            "add", "--proxy", "socks5h://127.0.0.1:\(socksPort)", "-o", "via-socks.bin", secure.url("s.bin"),
        ])
        // socks5:// goes through haul's relay (the name resolved here): TLS is end to end there too.
        try await succeed([
            "add", "--proxy", "socks5://127.0.0.1:\(socksPort)", "-o", "via-relay.bin",
            secure.url("s.bin").replacingOccurrences(of: "127.0.0.1", with: "localhost"),
        ])
        let result = try await haul("run", env: ["SSL_CERT_FILE": certificate.certificatePath])
        XCTAssertEqual(result.status, 0, result.stderr + result.stdout)
        XCTAssertTrue(sameFile(www + "/s.bin", downloads + "/via-http.bin"))
        XCTAssertTrue(sameFile(www + "/s.bin", downloads + "/via-socks.bin"))
        XCTAssertTrue(sameFile(www + "/s.bin", downloads + "/via-relay.bin"))
        XCTAssertTrue(log(tinyproxyLog).contains("CONNECT 127.0.0.1:\(secure.port)"), log(tinyproxyLog))
        XCTAssertTrue(log(microsocksLog).contains("connected to 127.0.0.1:\(secure.port)"), log(microsocksLog))
    }

    /// haul in a network namespace of its own that reaches only the proxies (over a veth pair):
    /// the origin on the host's loopback is out of its reach, so every byte came through them.
    func testTheOriginIsReachedOnlyThroughTheProxy() async throws {
        guard NetworkNamespace.isPossible else { throw XCTSkip("network namespaces need root and iproute2") }
        let namespace = try await NetworkNamespace(in: dir.path)
        addTeardownBlock { await namespace.remove() }
        let subnet = String(namespace.hostAddress.dropLast(2))
        let (http, socks) = try await startProxies(listen: "\(subnet).1", allow: "\(subnet).0/30", logs: "-veth")

        try TestFiles.random(www + "/far.bin", size: 3_000_000)
        func haulThere(_ arguments: [String]) async throws -> CommandResult {
            try await ChildProcess.run(
                "/usr/sbin/ip", ["netns", "exec", namespace.name, HaulBinary.path] + arguments,
                environment: environment(), in: dir.path)
        }
        // Directly, the origin is out of reach.
        _ = try await haulThere(["add", "-o", "direct.bin", nginx.url("far.bin")])
        var result = try await haulThere(["run"])
        XCTAssertEqual(result.status, 1, "no route to the origin: " + result.stdout)
        _ = try await haulThere(["rm", "--all"])
        _ = try await haulThere([
            "add", "-o", "via-http.bin", "--proxy", "http://proxyuser:proxypass@\(subnet).1:\(http)",
            nginx.url("far.bin"),
        ])
        _ = try await haulThere([
            "add", "-o", "via-socks.bin", "--proxy", "socks5h://\(subnet).1:\(socks)", nginx.url("far.bin"),
        ])
        result = try await haulThere(["run"])
        XCTAssertEqual(result.status, 0, result.stderr + result.stdout)
        XCTAssertTrue(sameFile(www + "/far.bin", downloads + "/via-http.bin"))
        XCTAssertTrue(sameFile(www + "/far.bin", downloads + "/via-socks.bin"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloads + "/direct.bin"))

        // socks5h sends the name: in haul's namespace `localhost` means an unreachable address
        // (`ip netns exec` puts /etc/netns/NAME/hosts over /etc/hosts); the proxy knows better.
        let hosts = "/etc/netns/\(namespace.name)"
        try FileManager.default.createDirectory(atPath: hosts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: hosts) }
        try "192.0.2.1 localhost\n".write(toFile: hosts + "/hosts", atomically: true, encoding: .utf8)
        let byName = nginx.url("far.bin").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        _ = try await haulThere(["add", "-o", "by-name.bin", "--proxy", "socks5h://\(subnet).1:\(socks)", byName])
        result = try await haulThere(["run"])
        XCTAssertEqual(result.status, 0, result.stderr + result.stdout)
        XCTAssertTrue(sameFile(www + "/far.bin", downloads + "/by-name.bin"))
        XCTAssertFalse(log(dir.path + "/microsocks-veth.log").contains("192.0.2.1"))
    }

    /// microsocks asking for a login: haul logs in (RFC 1929) for socks5h and socks5, a segmented
    /// download included; `socks5://` resolves the name here and sends the proxy an address,
    /// `socks5h://` sends the name; a wrong or missing login is named.
    func testASOCKSProxyWithALoginAndNamesResolvedHereOrThere() async throws {
        let port = FreePort.find()
        let logPath = dir.path + "/microsocks-login.log"
        children.append(
            try ChildProcess(
                "/usr/bin/microsocks", ["-i", "127.0.0.1", "-p", String(port), "-u", "socksuser", "-P", "sockspass"],
                environment: [:], stdout: logPath, stderr: logPath))
        try await waitUntil { FreePort.isListening(port) }
        try TestFiles.random(www + "/named.bin", size: 12_000_000)
        let byName = nginx.url("named.bin").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let nginxPort = try XCTUnwrap(URLComponents(string: byName)?.port)
        try await succeed([
            "add", "-o", "there.bin", "--proxy", "socks5h://socksuser:sockspass@127.0.0.1:\(port)", byName,
        ])
        try await succeed([
            "add", "-o", "here.bin", "--proxy", "socks5://socksuser:sockspass@127.0.0.1:\(port)", byName,
        ])
        var result = try await haul("run")
        XCTAssertEqual(result.status, 0, result.stderr + result.stdout)
        XCTAssertTrue(sameFile(www + "/named.bin", downloads + "/there.bin"))
        XCTAssertTrue(sameFile(www + "/named.bin", downloads + "/here.bin"))
        let carried = log(logPath)
        XCTAssertTrue(carried.contains("connected to localhost:\(nginxPort)"), "socks5h sent the name: \(carried)")
        XCTAssertTrue(carried.contains("connected to 127.0.0.1:\(nginxPort)"), "socks5 sent an address: \(carried)")
        let listed = try await haul("ls", "--json")
        XCTAssertFalse(listed.stdout.contains("sockspass"), "the password is not shown")

        try await succeed(["add", "-o", "wrong.bin", "--proxy", "socks5h://socksuser:nope@127.0.0.1:\(port)", byName])
        try await succeed(["add", "-o", "none.bin", "--proxy", "socks5h://127.0.0.1:\(port)", byName])
        let dead = FreePort.find()
        try await succeed(["add", "-o", "down.bin", "--proxy", "socks5://u:p@127.0.0.1:\(dead)", byName])
        result = try await haul("run", env: ["HAUL_MAX_RETRIES": "1"])
        XCTAssertTrue(
            result.stdout.contains("down.bin: cannot connect to the proxy 127.0.0.1:\(dead): connection refused"),
            result.stdout)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(
            result.stdout.contains(
                "wrong.bin: cannot connect to the proxy 127.0.0.1:\(port): it refused the user name "
                    + "and password"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("none.bin: cannot connect to the proxy 127.0.0.1:\(port): it asks for credentials"),
            result.stdout)
    }

    func testAHostRuleBeatsTheGlobalProxyAndAProxyThatFailsIsNamed() async throws {
        try TestFiles.random(www + "/a.bin", size: 100_000)
        let dead = FreePort.find()
        try await succeed(["proxy", "http://127.0.0.1:\(dead)"])
        var result = try await haul("proxy", "socks5h://127.0.0.1:\(socksPort)", "--for", "127.0.0.*")
        XCTAssertTrue(result.stdout.contains("for 127.0.0.*: socks5h://127.0.0.1:\(socksPort)"), result.stdout)
        try await succeed(["add", nginx.url("a.bin")])
        result = try await haul("run")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(log(microsocksLog).contains("connected to"), log(microsocksLog))

        // Without the rule, the global proxy is down: the reason names it, not the server.
        try await succeed(["proxy", "--unset", "--for", "127.0.0.*"])
        try await succeed(["add", "-o", "b.bin", nginx.url("a.bin")])
        result = try await haul("run", env: ["HAUL_MAX_RETRIES": "1"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.contains("the proxy 127.0.0.1:\(dead)"), result.stdout + result.stderr)

        // A proxy that refuses the credentials.
        try await succeed(["proxy", "http://proxyuser:wrong@127.0.0.1:\(httpPort)"])
        try await succeed(["add", "-o", "c.bin", nginx.url("a.bin")])
        result = try await haul("run", env: ["HAUL_MAX_RETRIES": "1"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(
            result.stdout.contains("the proxy 127.0.0.1:\(httpPort)") && result.stdout.contains("credentials"),
            result.stdout)

        // Bad input is one sentence.
        result = try await haul("proxy", "ftp://x:1")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("haul speaks to http://, socks5:// and socks5h:// proxies"), result.stderr)
    }
}
