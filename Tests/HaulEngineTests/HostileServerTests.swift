import Foundation
import HaulCore
import HaulLoopback
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
            "\(passed) kinds: 200 KB headers, bodies past Content-Length, unasked gzip (and a gzip bomb) saved "
                + "as sent, control characters in headers, a 1-byte drip, NUL / invalid UTF-8 / overlong names",
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
        XCTAssertEqual(d.state.kind, .failed)
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

    /// The gzip bytes of `original`, made by the system's `gzip`.
    func gzip(_ original: [UInt8], name: String) async throws -> [UInt8] {
        try Data(original).write(to: URL(fileURLWithPath: dir.path + "/" + name))
        let gz = try await ChildProcess.run(
            "/bin/sh", ["-c", "gzip -9 -c \(dir.path)/\(name) > \(dir.path)/\(name).gz"],
            environment: ["PATH": "/bin:/usr/bin"], in: dir.path)
        XCTAssertEqual(gz.status, 0, gz.stderr)
        return Array(try XCTUnwrap(TestFiles.contents(dir.path + "/\(name).gz")))
    }

    func testGzipSentUnaskedIsSavedAsSentAndResumesByRange() async throws {
        // A `.tar.gz` served with `Content-Encoding: gzip`: the file is the bytes on the wire.
        let original = Array(String(repeating: "haul stores the bytes it is sent. ", count: 30_000).utf8)
        let compressed = try await gzip(original, name: "plain.tar")
        let half = compressed.count / 2
        let server = try serve { request, index in
            XCTAssertEqual(request.headers["accept-encoding"], "identity", "haul asks for no content coding")
            let steps = FaultServer.serve(compressed, for: request, extraHeaders: [("Content-Encoding", "gzip")])
            guard index == 0, case .send(let bytes) = steps[0] else { return steps }
            // The first answer breaks off halfway through the body.
            let headLength = bytes.count - compressed.count
            return [.send(Array(bytes.prefix(headLength + half))), .sleep(0.2), .reset]
        }
        let d = try await run(server.url("plain.tar.gz"))
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        XCTAssertEqual(d.fileName, "plain.tar.gz")
        XCTAssertEqual(TestFiles.contents(d.path!).map(Array.init), compressed, "saved byte for byte, not unpacked")
        XCTAssertEqual(d.resumable, true)
        let ranges = server.requests.map { $0.headers["range"] }
        XCTAssertEqual(ranges.count, 2, "\(ranges)")
        XCTAssertNil(ranges[0])
        XCTAssertTrue(ranges[1]?.hasPrefix("bytes=") ?? false, "the second request resumes: \(ranges)")
        XCTAssertNotEqual(ranges[1], "bytes=0-")
    }

    func testABodyThatWouldInflateToAGibibyteIsSavedAsTheMebibyteItIs() async throws {
        // 1,024 gzip members of 1 MiB of zeros each: about 1 MiB that inflates to 1 GiB.
        let member = try await gzip([UInt8](repeating: 0, count: 1 << 20), name: "zeros")
        let bomb = Array([[UInt8]](repeating: member, count: 1024).joined())
        let server = try serve { request, _ in
            FaultServer.serve(bomb, for: request, extraHeaders: [("Content-Encoding", "gzip")])
        }
        let d = try await run(server.url("bomb.gz"))
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        XCTAssertEqual(d.totalBytes, Int64(bomb.count))
        XCTAssertEqual(TestFiles.contents(d.path!).map(Array.init), bomb)
        XCTAssertEqual(server.requests.count, 1)
    }

    func testAnyContentCodingIsSavedAsSent() async throws {
        let server = try serve { _, _ in
            [.send(FaultServer.head(200, [("Content-Encoding", "br"), ("Content-Length", "3")]) + [1, 2, 3])]
        }
        let d = try await run(server.url("x.bin"))
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        XCTAssertEqual(TestFiles.contents(d.path!).map(Array.init), [1, 2, 3])
    }

    func testControlCharactersInHeaderValuesBecomeSpacesAndTheNameIsClean() async throws {
        let server = try serve { _, _ in
            [
                .send(
                    Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Note: a\u{7}b\u{7F}c\r\n".utf8)
                        + Array("Content-Disposition: attachment; filename=\"re\u{1B}[31mport\u{1B}.txt\"\r\n".utf8)
                        + Array("Connection: close\r\n\r\nhi".utf8))
            ]
        }
        let d = try await run(server.url("x.bin"))
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        let name = try XCTUnwrap(d.fileName)
        XCTAssertFalse(name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, name)
        XCTAssertTrue(name.hasPrefix("re") && name.hasSuffix(".txt"), name)
        XCTAssertEqual(TestFiles.contents(d.path!).map(Array.init), Array("hi".utf8))
        XCTAssertEqual(server.requests.count, 1)
    }

    func testANULInAHeaderIsStillAMalformedResponseAndNotRetried() async throws {
        let server = try serve { _, _ in
            [
                .send(
                    Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Note: a\u{0}b\r\nConnection: close\r\n\r\nhi".utf8)
                )
            ]
        }
        let d = try await run(server.url("x.bin"))
        XCTAssertEqual(d.state.kind, .failed)
        XCTAssertTrue(d.reason?.hasPrefix("malformed response from the server") ?? false, d.reason ?? "")
        XCTAssertEqual(server.requests.count, 1, "a malformed response is not retried")
    }

    func testSlowDripKeepsGoingAndCancelIsPrompt() async throws {
        let b = body(100)
        let server = try serve { _, _ in
            [.send(FaultServer.head(200, [("Content-Length", "100")]))]
                + b.map { [.send([$0]), .sleep(0.3)] }.flatMap { $0 }
        }
        let engine = try makeEngine { $0.stallTimeout = .seconds(2) }
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
        let engine = try makeEngine { $0.connectTimeout = .seconds(30) }
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
