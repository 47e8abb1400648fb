import Foundation
import HaulTestSupport
import XCTest

/// `haul` downloading over https from nginx with a self-signed certificate, as a user meets it:
/// refused with a reason and what to do, then trusted through `SSL_CERT_FILE`.
final class HTTPSCommandLineTests: CLITestCase {
    var nginx: NginxServer?

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    func testAnUntrustedServerIsRefusedInWordsThenSSLCertFileTrustsIt() async throws {
        let www = dir.subdirectory("www")
        try TestFiles.random(www + "/a.bin", size: 300_000)
        let certificate = try await TestCertificate.make(in: dir.subdirectory("tls"))
        let nginx = try await NginxServer(root: www, tls: certificate, workDirectory: dir.subdirectory("nginx"))
        self.nginx = nginx

        let add = try await haul("add", nginx.url("a.bin"))
        XCTAssertEqual(add.status, 0, add.stderr)
        let refused = try await haul("run")
        XCTAssertEqual(refused.status, 1, refused.stdout + refused.stderr)
        XCTAssertTrue(
            refused.stdout.contains("failed a.bin: the server's TLS certificate is not trusted"), refused.stdout)
        XCTAssertFalse(refused.stdout.contains("BoringSSL"), refused.stdout)
        XCTAssertNil(fileSize(downloads + "/a.bin"))

        let retry = try await haul("retry", "--all")
        XCTAssertEqual(retry.status, 0, retry.stderr)
        let trusted = try await haul("run", env: ["SSL_CERT_FILE": certificate.certificatePath])
        XCTAssertEqual(trusted.status, 0, trusted.stdout + trusted.stderr)
        XCTAssertTrue(sameFile(downloads + "/a.bin", www + "/a.bin"))
    }
}
