import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Shared set-up for engine tests: a temp directory, an engine on a state file in it, and
/// helpers to wait for downloads. Everything is real: sockets, servers, files.
class EngineTestCase: XCTestCase {
    var dir: TestDirectory!
    var downloadDirectory: String!
    var engines: [Engine] = []

    override func setUp() async throws {
        dir = TestDirectory("haul-engine")
        chmod(dir.path, 0o755)
        downloadDirectory = dir.subdirectory("dl")
    }

    override func tearDown() async throws {
        for engine in engines { await engine.shutdown() }
        engines = []
        dir = nil
    }

    func makeEngine(_ tune: (inout EngineConfiguration) -> Void = { _ in }) throws -> Engine {
        var configuration = EngineConfiguration(statePath: dir.path + "/state/state.json")
        configuration.retryPolicy.baseDelay = .milliseconds(50)
        configuration.stallTimeout = .seconds(5)
        tune(&configuration)
        let engine = try Engine(configuration: configuration)
        engines.append(engine)
        return engine
    }

    /// Adds a download of `url` into the test's download directory.
    func add(
        _ engine: Engine, _ url: String, name: String? = nil, checksum: Checksum? = nil, paused: Bool = false,
        connections: Int? = nil
    ) async throws -> DownloadID {
        try await engine.perform(
            .add([
                DownloadRequest(
                    url: url, directory: downloadDirectory, requestedName: name, checksum: checksum, paused: paused,
                    connections: connections)
            ]))[0]
    }

    /// Polls until `condition` holds for the download, failing the test after `timeout` seconds.
    @discardableResult
    func waitFor(
        _ engine: Engine, _ id: DownloadID, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line,
        _ condition: (Download) -> Bool
    ) async throws -> Download {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let d = await engine.download(id), condition(d) { return d }
            try await Task.sleep(for: .milliseconds(20))
        }
        let last = await engine.download(id)
        XCTFail("condition not met in \(timeout) s; last: \(String(describing: last))", file: file, line: line)
        throw CancellationError()
    }

    func finished(
        _ engine: Engine, _ id: DownloadID, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Download {
        try await waitFor(engine, id, timeout: timeout, file: file, line: line) {
            $0.state == .finished || $0.state.isFailed
        }
    }

    func sha256(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return TestDigest.hex(TestDigest.sha256(data))
    }

    func assertSameContents(_ a: String, _ b: String, file: StaticString = #filePath, line: UInt = #line) {
        let ha = sha256(a)
        XCTAssertNotNil(ha, "missing \(a)", file: file, line: line)
        XCTAssertEqual(ha, sha256(b), "\(a) differs from \(b)", file: file, line: line)
    }

    func partFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: downloadDirectory)) ?? []).filter {
            $0.hasSuffix(".part")
        }
    }
}

/// An engine test against in-process ``FaultServer``s, stopped after each test.
class FaultServerTestCase: EngineTestCase {
    private var servers: [FaultServer] = []

    override func tearDown() async throws {
        for server in servers { server.stop() }
        servers = []
        try await super.tearDown()
    }

    func serve(_ handler: @escaping FaultServer.Handler) throws -> FaultServer {
        let server = try FaultServer(handler)
        servers.append(server)
        return server
    }
}
