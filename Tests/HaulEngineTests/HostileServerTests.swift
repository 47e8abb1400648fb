import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Servers that send what no good server sends. Each case ends in a defined, clearly
/// worded outcome, and nothing lands outside the destination.
final class HostileServerTests: FaultServerTestCase {
    nonisolated(unsafe) static var passed = 0 // XCTest runs a class's tests one after another

    override class func tearDown() {
        Figures.record(
            "Hostile servers",
            "\(passed) kinds: 200 KB headers, bodies past Content-Length, unasked gzip, unknown encodings, a 1-byte "
                + "drip, NUL / invalid UTF-8 / overlong names",
            "each handled with a clear message; stored bytes exact; names safe")
    }

    override func tearDown() async throws {
        if testRun?.totalFailureCount == 0 { Self.passed += 1 }
        try await super.tearDown()
    }

    func body(_ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) } }

    func run(_ url: String, _ tune: (inout EngineConfiguration) -> Void = { _ in }) async throws -> Download {
        let engine = try makeEngine(tune)
        let id = try await add(engine, url)
        await engine.start()
        return try await finished(engine, id)
    }

    func testHugeHeadersFailAtOnceWithAClearMessage() async throws {
        let server = try serve { _, _ in
            [
                .send(
                    FaultServer.head(
                        200, [("X-Junk", String(repeating: "a", count: 200_000)), ("Content-Length", "1")]) + [1])
            ]
        }
        let d = try await run(server.url("x.bin"))
        XCTAssertEqual(d.state, .failed)
        XCTAssertTrue(d.reason?.hasPrefix("malformed response from the server") ?? false, d.reason ?? "")
        XCTAssertEqual(server.requests.count, 1, "garbage is not retried")
    }

    func testBodyLongerThanContentLengthStoresExactlyContentLengthBytes() async throws {
        let b = body(1500)
        let server = try serve { _, _ in [.send(FaultServer.head(200, [("Content-Length", "1000")]) + b)] }
        let d = try await run(server.url("x.bin"))
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        XCTAssertEqual(TestFiles.contents(d.path!).map(Array.init), Array(b.prefix(1000)))
    }

    func testGzipEncodingSentUnaskedIsDecodedToTheResourceBytes() async throws {
        let original = Array(String(repeating: "haul stores the resource's bytes. ", count: 3000).utf8)
        try Data(original).write(to: URL(fileURLWithPath: dir.path + "/plain.txt"))
        let gz = try await ChildProcess.run(
            "/bin/sh", ["-c", "gzip -c \(dir.path)/plain.txt > \(dir.path)/plain.txt.gz"],
            environment: ["PATH": "/bin:/usr/bin"], in: dir.path)
        XCTAssertEqual(gz.status, 0, gz.stderr)
        let compressed = Array(try XCTUnwrap(TestFiles.contents(dir.path + "/plain.txt.gz")))
        let server = try serve { request, _ in
            XCTAssertEqual(request.headers["accept-encoding"], "identity")
            return [
                .send(
                    FaultServer.head(
                        200,
                        [
                            ("Content-Encoding", "gzip"), ("Content-Length", "\(compressed.count)"),
                            ("Accept-Ranges", "bytes"),
                        ]) + compressed)
            ]
        }
        let d = try await run(server.url("plain.txt"))
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        XCTAssertEqual(TestFiles.contents(d.path!).map(Array.init), original)
        XCTAssertEqual(d.resumable, false, "ranges of encoded bytes cannot be resumed")
    }

    func testUndecodableEncodingFailsAndSaysWhich() async throws {
        let server = try serve { _, _ in
            [.send(FaultServer.head(200, [("Content-Encoding", "br"), ("Content-Length", "3")]) + [1, 2, 3])]
        }
        let d = try await run(server.url("x.bin"))
        XCTAssertEqual(d.state, .failed)
        XCTAssertEqual(d.reason, "the server sent the file encoded as 'br', which haul cannot decode")
    }

    func testSlowDripKeepsGoingAndCancelIsPrompt() async throws {
        let b = body(100)
        let server = try serve { _, _ in
            [.send(FaultServer.head(200, [("Content-Length", "100")]))]
                + b.map { [.send([$0]), .sleep(0.3)] }.flatMap { $0 }
        }
        let engine = try makeEngine { $0.stallTimeout = 2 }
        let id = try await add(engine, server.url("drip.bin"))
        await engine.start()
        let dripping = try await waitFor(engine, id, timeout: 10) { $0.receivedBytes >= 5 }
        XCTAssertEqual(dripping.state, .downloading, "a slow drip is not a stall")
        let started = Date()
        try await engine.perform(.cancel(.ids([id])))
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dripping.partPath!))
        XCTAssertEqual(server.requests.count, 1)
    }

    /// AsyncHTTPClient's shutdown waits for a connection still being made: against a server that
    /// accepts and never answers the TLS handshake, Ctrl-C took the whole connect timeout.
    func testStoppingDoesNotWaitForATLSHandshakeThatNeverEnds() async throws {
        let server = try serve { _, _ in [] } // it waits for a request head; a ClientHello is none
        let engine = try makeEngine { $0.connectTimeout = 30 }
        let id = try await add(engine, server.url("x.bin").replacingOccurrences(of: "http://", with: "https://"))
        await engine.start()
        try await waitFor(engine, id, timeout: 10) { $0.state == .downloading }
        try await Task.sleep(for: .milliseconds(300))
        let started = Date()
        await engine.shutdown()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "shutdown waited for the connect timeout")
        let stopped = await engine.download(id)
        XCTAssertEqual(stopped?.state, .waiting)
    }

    func testNamesWithNULInvalidUTF8AndOverlongBytesAreMadeSafe() async throws {
        let heads: [[UInt8]] = [
            Array(
                ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Disposition: attachment; "
                    + "filename*=UTF-8''a%00b%01c.txt\r\nConnection: close\r\n\r\nhi").utf8),
            Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Disposition: attachment; filename=\"".utf8) + [
                0xFF, 0xFE, 0x2E, 0x74, 0x78, 0x74,
            ] + Array("\"\r\nConnection: close\r\n\r\nhi".utf8),
            Array(
                ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Disposition: attachment; "
                    + "filename*=UTF-8''\(String(repeating: "%E6%97%A5", count: 120)).txt\r\nConnection: "
                    + "close\r\n\r\nhi").utf8),
        ]
        let server = try serve { request, _ in [.send(heads[Int(request.path.dropFirst(3))!])] }
        let engine = try makeEngine()
        var ids: [DownloadID] = []
        for i in heads.indices { ids.append(try await add(engine, server.url("n/\(i)"))) }
        await engine.start()
        await engine.waitUntilIdle()
        var names: [String] = []
        for id in ids {
            let d = await engine.download(id)
            XCTAssertEqual(d?.state, .finished, d?.reason ?? "")
            names.append(d?.fileName ?? "")
        }
        XCTAssertEqual(names[0], "abc.txt")
        XCTAssertEqual(names[1], "__.txt")
        XCTAssertLessThanOrEqual(names[2].utf8.count, FileNameSanitizer.maximumBytes)
        XCTAssertTrue(names[2].hasSuffix("日.txt"))
        for name in names {
            XCTAssertFalse(name.unicodeScalars.contains { TerminalText.isUnsafe($0) }, name.debugDescription)
        }
    }
}
