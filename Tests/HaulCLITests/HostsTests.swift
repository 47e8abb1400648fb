import Foundation
import HaulTestSupport
import XCTest

/// Settings for some hosts: they win over the global ones and lose to a download's own.
final class HostsTests: NginxCLITestCase {
    override var slowRate: String { "1m" }

    func succeed(_ arguments: String...) async throws {
        let result = try await haul(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testAHostsHeadersConnectionsAndLimitApplyUnlessTheDownloadHasItsOwn() async throws {
        try TestFiles.random(www + "/big.bin", size: 2_500_000)
        try TestFiles.random(www + "/small.bin", size: 600_000)
        try await succeed("hosts", "--for", "127.0.0.*", "--header", "X-Secret: for-the-host")
        try await succeed("connections", "1", "--for", "127.0.0.*")
        try await succeed("limit", "300K", "--for", "localhost")
        let listed = try await haul("hosts")
        XCTAssertTrue(listed.stdout.contains("127.0.0.*: connections 1, header X-Secret: for-the-host"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("localhost: limit "), listed.stdout)

        // The capped location would take more connections; the host allows one.
        try await succeed("add", nginx.url("slow/big.bin"))
        let local = nginx.url("small.bin").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        try await succeed("add", "--header", "X-Secret: its-own", "-x", "2", local)
        let started = Date()
        let run = try await haul("run")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(sameFile(www + "/big.bin", downloads + "/big.bin"))
        XCTAssertTrue(sameFile(www + "/small.bin", downloads + "/small.bin"))
        let log = nginx.credentialsLog()
        XCTAssertTrue(log.contains { $0.hasPrefix("/slow/big.bin|") && $0.hasSuffix("|for-the-host") }, "\(log)")
        XCTAssertTrue(log.contains { $0.hasPrefix("/small.bin|") && $0.hasSuffix("|its-own") }, "\(log)")
        XCTAssertFalse(log.contains { $0.hasPrefix("/small.bin|") && $0.hasSuffix("|for-the-host") }, "\(log)")
        let bigConnections = Set(nginx.accessLog().filter { $0.uri == "/slow/big.bin" }.map(\.connection))
        XCTAssertEqual(bigConnections.count, 1, "one connection for the host")
        // 600 KB at 300 KiB/s per download from localhost.
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.5)

        try await succeed("hosts", "--for", "127.0.0.*", "--clear")
        let cleared = try await haul("hosts")
        XCTAssertFalse(cleared.stdout.contains("127.0.0.*"), cleared.stdout)
    }
}
