import Foundation
import HaulTestSupport
import XCTest

/// A list of small files over https from nginx with HTTP/2 on, as `haul add -i` and `haul run`
/// fetch it: the files share the server's connections as streams, and a server that takes one
/// stream at a time, or that sends GOAWAY part way through the list, loses no file.
final class HTTP2ListTests: CLITestCase {
    let count = 200
    var nginx: NginxServer?

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    /// nginx over TLS with HTTP/2 and `lines` in its server block, serving `count` files of a few
    /// KiB each; returns it with the files' names and the certificate to trust.
    func serve(_ lines: String = "") async throws -> (NginxServer, [String], TestCertificate) {
        let www = dir.subdirectory("www")
        let names = makeSmallFiles(count, in: www) { 1024 + $0 * 53 }
        let certificate = try await TestCertificate.make(in: dir.subdirectory("tls"))
        let nginx = try await NginxServer(
            root: www, tls: certificate, workDirectory: dir.subdirectory("nginx"), serverLines: { _ in lines })
        self.nginx = nginx
        return (nginx, names, certificate)
    }

    /// Adds the list and runs it sixteen at a time; fails unless every file is identical.
    func fetchAll(_ nginx: NginxServer, _ names: [String], trusting certificate: TestCertificate) async throws {
        try await addList(names.map { nginx.url($0) })
        try await runAndCompare(
            names, from: dir.path + "/www", jobs: 16, env: ["SSL_CERT_FILE": certificate.certificatePath])
    }

    func testTheFilesOfOneHostShareItsConnectionsStreams() async throws {
        let (nginx, names, certificate) = try await serve()
        try await fetchAll(nginx, names, trusting: certificate)
        let log = nginx.accessLog().filter { $0.status == 200 }
        XCTAssertEqual(Set(log.map(\.uri)).count, count)
        // Over HTTP/1.1 sixteen at a time would take sixteen connections; as streams of HTTP/2
        // they take one (a second, should the first be closed while the list runs).
        let connections = Set(log.map(\.connection)).count
        XCTAssertLessThanOrEqual(connections, 2, "\(connections) connections for \(count) files")
    }

    func testAServerThatTakesOneStreamAtATimeLosesNoFile() async throws {
        let (nginx, names, certificate) = try await serve("http2_max_concurrent_streams 1;")
        try await fetchAll(nginx, names, trusting: certificate)
        let log = nginx.accessLog().filter { $0.status == 200 }
        XCTAssertEqual(Set(log.map(\.uri)).count, count)
        XCTAssertLessThanOrEqual(Set(log.map(\.connection)).count, 16, "no more than the per-server cap")
    }

    func testAServerThatSendsGoawayPartWayLosesNoFile() async throws {
        // nginx ends an HTTP/2 connection with GOAWAY after this many requests on it.
        let (nginx, names, certificate) = try await serve("keepalive_requests 23;")
        try await fetchAll(nginx, names, trusting: certificate)
        let log = nginx.accessLog().filter { $0.status == 200 }
        XCTAssertEqual(Set(log.map(\.uri)).count, count)
        let connections = Set(log.map(\.connection)).count
        XCTAssertGreaterThanOrEqual(connections, count / 23, "the server did end its connections")
    }
}
