import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// The engine against nginx serving https with a self-signed certificate: the AsyncHTTPClient
/// path that every https download takes, its trust setting, and its failures in words.
final class TLSEngineTests: EngineTestCase {
    var www: String!
    var certificate: TestCertificate!
    var servers: [NginxServer] = []

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        certificate = try await TestCertificate.make(in: dir.subdirectory("tls"))
    }

    override func tearDown() async throws {
        for server in servers { await server.stop() }
        servers = []
        try await super.tearDown()
    }

    func serve(_ certificate: TestCertificate?) async throws -> NginxServer {
        let server = try await NginxServer(
            root: www, slowRate: "400k", tls: certificate, workDirectory: dir.subdirectory("nginx\(servers.count)"))
        servers.append(server)
        return server
    }

    func trusting(_ file: String) -> (inout EngineConfiguration) -> Void {
        { $0.apply(environment: ["SSL_CERT_FILE": file]) }
    }

    func testATrustedCertificateDownloadsAndResumesOverHTTPS() async throws {
        let size = 1_500_000
        try TestFiles.random(www + "/big.bin", size: size)
        let nginx = try await serve(certificate)
        let engine = try makeEngine(trusting(certificate.certificatePath))
        let id = try await add(engine, nginx.url("slow/big.bin"))
        await engine.start()
        try await waitFor(engine, id) { $0.receivedBytes > 200_000 }
        try await engine.perform(.pause(.ids([id])))
        let pausedOrNil = await engine.download(id)
        let stoppedAt = try XCTUnwrap(PartFile.size(at: XCTUnwrap(pausedOrNil?.partPath)))

        try await engine.perform(.resume(.ids([id])))
        let done = try await finished(engine, id)
        XCTAssertEqual(done.state, .finished, done.reason ?? "")
        assertSameContents(done.path!, www + "/big.bin")
        // nginx logs the paused request once its connection is gone: after TLS's closing handshake.
        var requests: [NginxServer.LogEntry] = []
        for _ in 0..<150 where requests.count < 2 {
            requests = nginx.accessLog().filter { $0.uri == "/slow/big.bin" }.sorted {
                $0.range == nil && $1.range != nil
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTAssertEqual(requests.count, 2, "\(requests)")
        XCTAssertEqual(requests.last?.range, "bytes=\(stoppedAt)-")
        XCTAssertEqual(requests.last?.status, 206)
        XCTAssertEqual(requests.last?.bytesSent, Int64(size) - stoppedAt, "the resume asked only for the missing bytes")
    }

    func testAGzipEncodedTarballOverHTTPSIsSavedAsSentAndResumesByRange() async throws {
        // nginx adds `Content-Encoding: gzip` to whatever it serves under /gzip/.
        try TestFiles.random(www + "/pack.tar.gz", size: 1_200_000)
        let nginx = try await serve(certificate)
        let engine = try makeEngine(trusting(certificate.certificatePath))
        let id = try await add(engine, nginx.url("gzip/pack.tar.gz"), connections: 1)
        await engine.start()
        try await waitFor(engine, id) { $0.receivedBytes > 200_000 }
        try await engine.perform(.pause(.ids([id])))
        try await engine.perform(.resume(.ids([id])))
        let done = try await finished(engine, id)
        XCTAssertEqual(done.state, .finished, done.reason ?? "")
        XCTAssertEqual(done.fileName, "pack.tar.gz")
        assertSameContents(done.path!, www + "/pack.tar.gz")
        var ranges: [String?] = []
        for _ in 0..<150 where ranges.count < 2 {
            ranges = nginx.accessLog().filter { $0.uri == "/gzip/pack.tar.gz" }.map(\.range)
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTAssertEqual(ranges.compactMap { $0 }.count, 1, "the resume asked for a range: \(ranges)")
    }

    func testASegmentedDownloadOverHTTPSUsesSeveralTCPConnections() async throws {
        try TestFiles.random(www + "/pieces.bin", size: 8 << 20)
        let nginx = try await serve(certificate)
        let engine = try makeEngine(trusting(certificate.certificatePath))
        let id = try await add(engine, nginx.url("slow/pieces.bin"))
        await engine.start()
        let done = try await finished(engine, id, timeout: 60)
        XCTAssertEqual(done.state, .finished, done.reason ?? "")
        assertSameContents(done.path!, www + "/pieces.bin")
        var requests: [NginxServer.LogEntry] = []
        for _ in 0..<50 {
            requests = nginx.accessLog().filter { $0.uri == "/slow/pieces.bin" }
            if requests.count > 4 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        // A cap per connection applies to a TCP connection: several streams of one HTTP/2
        // connection would share it.
        XCTAssertGreaterThanOrEqual(Set(requests.map(\.connection)).count, 4, "\(requests)")
        XCTAssertGreaterThanOrEqual(nginx.peakConcurrency(uri: "/slow/pieces.bin"), 4)
    }

    func testAnUntrustedCertificateFailsAtOnceAndSaysWhatToDo() async throws {
        let started = Date()
        let nginx = try await serve(certificate)
        // Trusting another certificate: the server's own is then as unknown as a stranger's.
        let stranger = try await TestCertificate.make(in: dir.subdirectory("tls"), named: "stranger")
        let d = try await failedDownload(of: nginx.url("a.bin"), trusting: stranger.certificatePath)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the failure waited for the connect timeout")
        assertWords(d.reason, expecting: "the server's TLS certificate is not trusted")
        XCTAssertTrue(d.reason?.contains("SSL_CERT_FILE") == true, d.reason ?? "")
        XCTAssertEqual(d.retries, 0, "retrying cannot make a certificate trusted")
        XCTAssertEqual(partFiles(), [])
    }

    func testACertificateForAnotherHostIsRefused() async throws {
        let elsewhere = try await TestCertificate.make(
            in: dir.subdirectory("tls"), named: "elsewhere", dnsNames: ["example.org"], ipAddresses: [])
        let nginx = try await serve(elsewhere)
        let d = try await failedDownload(of: nginx.url("a.bin"), trusting: elsewhere.certificatePath)
        assertWords(d.reason, expecting: "the server's TLS certificate is for another host name")
    }

    func testAPlainHTTPServerAtAnHTTPSURLIsNamedAsSuch() async throws {
        let plain = try await serve(nil)
        let url = plain.url("a.bin").replacingOccurrences(of: "http://", with: "https://")
        let d = try await failedDownload(of: url, trusting: certificate.certificatePath)
        assertWords(d.reason, expecting: "the server does not speak TLS on this port")
    }

    func testAnUnreadableCertificateFileIsNamed() async throws {
        let nginx = try await serve(certificate)
        let d = try await failedDownload(of: nginx.url("a.bin"), trusting: dir.path + "/no-such.pem")
        assertWords(d.reason, expecting: "SSL_CERT_FILE is not a readable file of PEM certificates")
    }

    /// Downloads `url` (a small file that exists) with `SSL_CERT_FILE` set; the download must fail.
    func failedDownload(of url: String, trusting file: String, line: UInt = #line) async throws -> Download {
        try TestFiles.random(www + "/a.bin", size: 1000)
        let engine = try makeEngine(trusting(file))
        let id = try await add(engine, url)
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state.kind, .failed, line: line)
        return d
    }

    /// The reason starts with `expected` and carries none of NIOSSL's dump: no type names,
    /// error codes or paths of C files.
    func assertWords(_ reason: String?, expecting expected: String, file: StaticString = #filePath, line: UInt = #line)
    {
        let reason = reason ?? ""
        XCTAssertTrue(reason.hasPrefix(expected), "reason: \(reason)", file: file, line: line)
        for leak in ["NIOSSL", "BoringSSL", "Error:", ".cc", "Sources/", "OPENSSL"] {
            XCTAssertFalse(reason.contains(leak), "'\(leak)' in: \(reason)", file: file, line: line)
        }
    }
}
