import Foundation
import HaulTestSupport
import XCTest

/// Several sources per file as users meet them: three nginx mirrors that each cap a client
/// (`limit_conn` per address, `limit_rate` per connection) behind a redirect naming the others in
/// `Link` headers, as mirrorbits answers; `--mirror`, TAB-separated URLs in an input file, and a
/// Metalink file on disk. The real `haul` binary, `haul add` then `haul run`.
final class MirrorsCLITests: CLITestCase {
    var www: String!
    var mirrors: [NginxServer] = []

    /// Each mirror serves `www` under `/capped/`: two connections per client, 2 MB/s each.
    static let capped = "limit_conn_zone $binary_remote_addr zone=peraddr:1m;"
    func cappedLocation(_ root: String) -> String {
        "location /capped/ { alias \(root)/; limit_rate 2m; limit_conn peraddr 2; limit_conn_status 503; }"
    }

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        try TestFiles.random(www + "/file.bin", size: 24 << 20)
        for name in ["b", "c"] {
            mirrors.append(
                try await NginxServer(
                    root: www, workDirectory: dir.subdirectory("nginx-" + name), httpLines: Self.capped,
                    serverLines: { [www] _ in self.cappedLocation(www!) }))
        }
        let (b, c) = (mirrors[0], mirrors[1])
        // The redirector is a mirror too: it answers /get/ with a 302 to its own copy that names
        // the other two, as mirrorbits does.
        let a = try await NginxServer(
            root: www, workDirectory: dir.subdirectory("nginx-a"), httpLines: Self.capped,
            serverLines: { [www] _ in
                """
                \(self.cappedLocation(www!))
                location /get/ {
                  add_header Link '<\(b.url("capped/file.bin"))>; rel=duplicate; pri=1; geo=de' always;
                  add_header Link '<\(c.url("capped/file.bin"))>; rel=duplicate; pri=2; geo=fr' always;
                  rewrite ^/get/(.*)$ /capped/$1 redirect;
                }
                """
            })
        mirrors.insert(a, at: 0)
    }

    override func tearDown() async throws {
        for mirror in mirrors { await mirror.stop() }
        mirrors = []
        try await super.tearDown()
    }

    /// Bytes of the file each mirror sent in answers to range requests.
    func served(_ server: NginxServer) -> Int64 {
        server.accessLog().filter { $0.status == 206 && $0.uri.hasPrefix("/capped/") }.reduce(0) { $0 + $1.bytesSent }
    }

    func sameFile(_ name: String) -> Bool {
        FileManager.default.contentsEqual(atPath: downloads + "/" + name, andPath: www + "/file.bin")
    }

    func testThreeCappedMirrorsBehindARedirectAllServeAndCredentialsStayHome() async throws {
        let add = try await haul(
            "add", "--header", "X-Secret: s3cret", "--header", "Authorization: Bearer t0ken",
            mirrors[0].url("get/file.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile("file.bin"))
        for (index, mirror) in mirrors.enumerated() {
            XCTAssertGreaterThan(served(mirror), 1 << 20, "mirror \(index) served a share")
        }
        // The server the user named got the headers; the mirrors a header named got none.
        XCTAssertTrue(mirrors[0].credentialsLog().contains { $0.contains("Bearer t0ken") && $0.contains("s3cret") })
        for mirror in mirrors.dropFirst() {
            for line in mirror.credentialsLog() { XCTAssertEqual(line, "/capped/file.bin|-|-|-") }
        }
        let list = try await listJSON()
        let sources = try XCTUnwrap(list.first?["sources"] as? [[String: Any]])
        XCTAssertEqual(sources.count, 3)
        XCTAssertEqual(sources.map { $0["state"] as? String }, ["usable", "usable", "usable"])
        XCTAssertTrue(sources.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 }, "\(sources)")
    }

    /// A download whose own server does not answer (a name that does not resolve, then a port
    /// that refuses) is fetched from the sources after it, which get no credential.
    func testADeadServerHandsTheFileToTheNextSources() async throws {
        let (b, c) = (mirrors[1], mirrors[2])
        let refused = "http://127.0.0.1:\(FreePort.find())/file.bin"
        let run = try await haul(
            "-d", downloads, "-o", "fallback.bin", "--header", "X-Secret: s3cret", "--header",
            "Authorization: Bearer t0ken", "http://no-such-host.invalid/file.bin", "--mirror", refused, "--mirror",
            b.url("capped/file.bin"), "--mirror", c.url("capped/file.bin"))
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile("fallback.bin"))
        let port = refused.split(separator: ":")[2].prefix { $0.isNumber }
        XCTAssertTrue(run.stdout.contains("; asking 127.0.0.1:\(port) instead"), run.stdout)
        XCTAssertTrue(run.stdout.contains("connection refused; asking 127.0.0.1:\(b.port) instead"), run.stdout)
        XCTAssertGreaterThan(served(b) + served(c), 0)
        // A mirror the user named gets the user's other headers, never a credential.
        let lines = b.credentialsLog() + c.credentialsLog()
        XCTAssertFalse(lines.isEmpty)
        for line in lines { XCTAssertEqual(line, "/capped/file.bin|-|-|s3cret") }
        let listed = try await listJSON()
        let sources = try XCTUnwrap(listed.first?["sources"] as? [[String: Any]])
        XCTAssertEqual(sources.first { $0["url"] as? String == refused }?["state"] as? String, "dropped", "\(sources)")
    }

    /// A download on one connection whose server goes away halfway resumes its bytes from a
    /// source that shows the same file; one that serves another file of the same size is dropped.
    func testHalfwayOnOneConnectionTheBytesOnDiskAreResumedFromASourceWithTheSameFile() async throws {
        let (a, b, c) = (mirrors[0], mirrors[1], mirrors[2])
        try TestFiles.random(www + "/half.bin", size: 6 << 20)
        try TestFiles.random(www + "/other.bin", size: 6 << 20)
        let log = dir.path + "/half.log"
        let run = try spawnHaul(
            [
                "-x", "1", "-d", downloads, "-o", "half.bin", a.url("capped/half.bin"), "--mirror",
                c.url("capped/other.bin"), "--mirror", b.url("capped/half.bin"),
            ], log: log, env: ["HAUL_RETRY_BASE": "0.2"])
        try await waitUntil {
            (try? FileManager.default.attributesOfItem(atPath: self.downloads + "/half.bin.part"))?[.size] as? Int ?? 0
                > 1 << 20
        }
        await a.stop()
        let status = await run.wait(timeout: 60)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: downloads + "/half.bin", andPath: www + "/half.bin"))
        XCTAssertTrue(output.contains("dropped the source 127.0.0.1:\(c.port)"), output)
        XCTAssertTrue(output.contains("asking 127.0.0.1:\(b.port) instead"), output)
        // The bytes on disk were resumed, not fetched again: b sent the rest and the overlap.
        let fromB = served(b)
        XCTAssertGreaterThan(fromB, 0)
        XCTAssertLessThan(fromB, 6 << 20)
        XCTAssertFalse(
            c.accessLog().contains { $0.status == 206 && $0.bytesSent > 16 << 10 }, "c sent only the overlap")
    }

    func testNoMirrorsKeepsToTheOneServer() async throws {
        let add = try await haul("add", "--no-mirrors", mirrors[0].url("get/file.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile("file.bin"))
        XCTAssertEqual(served(mirrors[1]) + served(mirrors[2]), 0)
    }

    func testMirrorFlagsInputFileTabsAndAMetalinkFileOnDisk() async throws {
        let (a, b, c) = (mirrors[0], mirrors[1], mirrors[2])
        let flags = try await haul(
            "add", "-o", "flags.bin", a.url("capped/file.bin"), "--mirror", b.url("capped/file.bin"), "--mirror",
            c.url("capped/file.bin"))
        XCTAssertEqual(flags.status, 0, flags.stderr)
        let list = dir.path + "/list.txt"
        try "\(b.url("capped/file.bin"))\t\(c.url("capped/file.bin"))\n  out=tabs.bin\n".write(
            toFile: list, atomically: true, encoding: .utf8)
        let tabs = try await haul("add", "-i", list)
        XCTAssertEqual(tabs.status, 0, tabs.stderr)
        XCTAssertFalse(tabs.stderr.contains("several URLs"), "TAB-separated URLs are mirrors now: " + tabs.stderr)
        let meta4 = dir.path + "/file.meta4"
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <file name="from-metalink.bin">
            <size>\(24 << 20)</size>
            <url priority="1">\(c.url("capped/file.bin"))</url>
            <url priority="2">\(a.url("capped/file.bin"))</url>
            <url priority="3">file:///etc/passwd</url>
          </file>
        </metalink>
        """.write(toFile: meta4, atomically: true, encoding: .utf8)
        let metalink = try await haul("add", meta4)
        XCTAssertEqual(metalink.status, 0, metalink.stderr)
        XCTAssertTrue(metalink.stderr.contains("file URLs are skipped"), metalink.stderr)

        try "<metalink><file name=\"x\">".write(toFile: dir.path + "/bad.meta4", atomically: true, encoding: .utf8)
        let bad = try await haul("add", dir.path + "/bad.meta4", a.url("capped/file.bin"))
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("haul: ") && bad.stderr.contains("not a Metalink document"), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, "one sentence")

        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        for name in ["flags.bin", "tabs.bin", "from-metalink.bin"] { XCTAssertTrue(sameFile(name), name) }
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 3, "the bad Metalink added nothing")
        XCTAssertEqual(listed.map { ($0["sources"] as? [Any])?.count }, [3, 2, 2])
        XCTAssertTrue(served(b) > 0 && served(c) > 0)
    }
}
