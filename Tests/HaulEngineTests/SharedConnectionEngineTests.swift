import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// `-j` over HTTP/2 against nginx: small files of a host that answers over HTTP/2 ride its
/// connection's streams, several to a place, while large files still take a place each.
final class SharedConnectionEngineTests: EngineTestCase {
    var nginx: NginxServer?

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    /// Serves `sizes` (one file each, under /slow/ at 400 KB/s a stream) over TLS with HTTP/2, adds
    /// them with the limit at 2, runs them to the end and returns the most that were downloading
    /// at once.
    func mostAtOnce(
        sizes: [Int], serverLines: String = "", _ tune: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws -> Int {
        let www = dir.subdirectory("www")
        for (n, size) in sizes.enumerated() { try TestFiles.random(www + "/f\(n).bin", size: size) }
        let certificate = try await TestCertificate.make(in: dir.subdirectory("tls"))
        let nginx = try await NginxServer(
            root: www, slowRate: "400k", tls: certificate, workDirectory: dir.subdirectory("nginx"),
            serverLines: { _ in serverLines })
        self.nginx = nginx
        let engine = try makeEngine {
            $0.apply(environment: ["SSL_CERT_FILE": certificate.certificatePath])
            tune(&$0)
        }
        try await engine.perform(.setConcurrency(2))
        var ids: [DownloadID] = []
        for n in sizes.indices { ids.append(try await add(engine, nginx.url("slow/f\(n).bin"), connections: 1)) }
        await engine.start()
        var most = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var downloading = 0
            var done = 0
            for id in ids {
                switch await engine.download(id)?.state {
                case .downloading?: downloading += 1
                case .finished?: done += 1
                case .failed?: XCTFail("\(id) failed: \(await engine.download(id)?.reason ?? "")")
                default: break
                }
            }
            most = max(most, downloading)
            if done == ids.count { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        for (n, id) in ids.enumerated() {
            let done = try await finished(engine, id)
            assertSameContents(try XCTUnwrap(done.path), www + "/f\(n).bin")
            XCTAssertEqual(
                done.retries, 0,
                "\(done.fileName ?? "") was retried: \(done.notice.map(String.init(describing:)) ?? "")")
        }
        return most
    }

    func testSmallFilesOfAnHTTP2HostRunBeyondTheLimitAsStreams() async throws {
        let most = try await mostAtOnce(sizes: Array(repeating: 120_000, count: 40))
        XCTAssertGreaterThan(most, 2, "small files share the connection's streams")
        XCTAssertLessThanOrEqual(most, 2 * ConnectionPlaces.streamsPerPlace)
    }

    func testLargeFilesOfAnHTTP2HostKeepToTheLimit() async throws {
        let most = try await mostAtOnce(sizes: Array(repeating: Int(SharedHosts.smallFileLimit) + 100_000, count: 3))
        XCTAssertEqual(most, 2)
    }

    /// A server that takes two streams at a time on a connection: the streams past them wait
    /// until it has room (NIO holds them, and no timeout runs while they wait), so no file is
    /// lost and none is retried, even with a connect timeout shorter than the wait.
    func testAServerWithRoomForFewStreamsLosesNoFileAndCountsNoRetry() async throws {
        let most = try await mostAtOnce(
            sizes: Array(repeating: 200_000, count: 24), serverLines: "http2_max_concurrent_streams 2;"
        ) { $0.connectTimeout = .seconds(1) }
        XCTAssertGreaterThan(most, 2, "the host's small files still share its connection")
        XCTAssertEqual(Set(nginx?.accessLog().map(\.connection) ?? []).count, 1)
    }
}
