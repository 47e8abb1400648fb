import Foundation

/// A self-signed TLS certificate and its key, made with the `openssl` command for one test.
public struct TestCertificate: Sendable {
    /// The certificate, PEM: what a client trusts (`SSL_CERT_FILE`) and what nginx presents.
    public let certificatePath: String
    public let keyPath: String

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes a certificate in `directory` for the given DNS names and IP addresses.
    public static func make(
        in directory: String, named name: String = "server", dnsNames: [String] = ["localhost"],
        ipAddresses: [String] = ["127.0.0.1"]
    ) async throws -> TestCertificate {
        guard
            let openssl = ["/usr/bin/openssl", "/bin/openssl"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw Unavailable(description: "openssl is not installed (apt-get install openssl)")
        }
        let certificate = TestCertificate(
            certificatePath: "\(directory)/\(name).crt", keyPath: "\(directory)/\(name).key")
        let names = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
        let result = try await ChildProcess.run(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", certificate.keyPath, "-out", certificate.certificatePath, "-days", "2",
                "-subj", "/CN=\(dnsNames.first ?? ipAddresses.first ?? "haul test")",
                "-addext", "subjectAltName=" + names.joined(separator: ","),
            ], environment: [:], in: directory)
        guard result.status == 0 else { throw Unavailable(description: "openssl req failed: \(result.stderr)") }
        return certificate
    }
}
