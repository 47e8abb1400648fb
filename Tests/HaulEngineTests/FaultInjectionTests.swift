import Foundation
import HaulCore
import HaulHTTP
import HaulLoopback
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// The engine against a server that misbehaves on purpose.
final class FaultInjectionTests: FaultServerTestCase {
    nonisolated(unsafe) static var passed = 0 // XCTest runs a class's tests one after another

    override class func tearDown() {
        Figures.record(
            "Injected network faults",
            "\(passed) scenarios: resets mid-body, stalls, 503 + Retry-After, 500s, ignored ranges, short bodies, "
                + "redirects to file:// and loops, 416 at full size, hostile names",
            "each retried, resumed or failed with its reason as specified; files byte-identical")
    }

    override func tearDown() async throws {
        if testRun?.totalFailureCount == 0 { Self.passed += 1 }
        try await super.tearDown()
    }

    func randomBody(_ size: Int) -> [UInt8] { TestFiles.randomBytes(size) }

    func assertContents(_ download: Download, equal body: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(download.state, .finished, download.reason ?? "", file: file, line: line)
        guard let path = download.path, let data = FileManager.default.contents(atPath: path) else {
            return XCTFail("no file for \(download)", file: file, line: line)
        }
        XCTAssertTrue(
            Array(data) == body, "contents differ (\(data.count) vs \(body.count) bytes)", file: file, line: line)
    }

    /// A connection whose bytes stop is not shown at its last speed until the stall gives up:
    /// once it has been quiet two seconds its speed is said to be 0, and the file still finishes.
    func testAStalledTransfersSpeedFallsToZeroWhileItWaits() async throws {
        let body = randomBody(1_000_000)
        let server = try serve { request, index in
            guard index == 0 else { return FaultServer.serve(body, for: request) }
            var steps: [FaultServer.Step] = [
                .send(
                    FaultServer.head(
                        200, [("Content-Length", "\(body.count)"), ("ETag", "\"v1\""), ("Accept-Ranges", "bytes")]))
            ]
            for k in 0..<10 { steps += [.send(Array(body[k * 20_000..<(k + 1) * 20_000])), .sleep(0.1)] }
            return steps + [.sleep(6), .reset]
        }
        let engine = try makeEngine { $0.stallTimeout = .seconds(30) }
        let events = await engine.subscribe()
        let id = try await add(engine, server.url("file.bin"), connections: 1)
        await engine.start()
        var moving: ContinuousClock.Instant?
        var settledAfter: Duration?
        for await event in events {
            // Looked for until the download ends: it finishes once the stall is over.
            if case .updated(let d) = event, d.id == id, d.state == .finished || d.state.isFailed { break }
            guard case .progress(let sample) = event, sample.id == id else { continue }
            if sample.bytesPerSecond > 0 {
                moving = .now
            } else if let moving {
                settledAfter = .now - moving
                XCTAssertNil(sample.etaSeconds)
                // What the transfer last reported (it reports at most every 100 ms).
                XCTAssertTrue((100_000...200_000).contains(sample.receivedBytes), "\(sample.receivedBytes)")
                break
            }
        }
        let waited = try XCTUnwrap(settledAfter, "no sample said the transfer had stopped")
        XCTAssertLessThan(waited, .seconds(5), "said within the quiet spell and a tick, not at the stall's end")
        let d = try await finished(engine, id)
        assertContents(d, equal: body)
    }

    func testConnectionResetMidBodyIsRetriedAndCompletes() async throws {
        let body = randomBody(1_000_000)
        let server = try serve { request, index in
            if index == 0 {
                return [
                    .send(
                        FaultServer.head(
                            200, [("Content-Length", "\(body.count)"), ("ETag", "\"v1\""), ("Accept-Ranges", "bytes")])
                            + Array(body[..<300_000])),
                    .sleep(0.2), .reset,
                ]
            }
            return FaultServer.serve(body, for: request)
        }
        let engine = try makeEngine()
        let id = try await add(engine, server.url("file.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        assertContents(d, equal: body)
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        let range = try XCTUnwrap(requests[1].headers["range"])
        XCTAssertNotEqual(range, "bytes=0-")
        XCTAssertEqual(requests[1].headers["if-range"], "\"v1\"")
        XCTAssertNotNil(d.lastError)
    }

    func testStallIsDetectedAndRetried() async throws {
        let body = randomBody(200_000)
        let server = try serve { request, index in
            if index == 0 {
                return [
                    .send(
                        FaultServer.head(200, [("Content-Length", "\(body.count)"), ("ETag", "\"v1\"")])
                            + Array(body[..<50_000])), .sleep(8),
                ]
            }
            return FaultServer.serve(body, for: request)
        }
        let engine = try makeEngine { $0.stallTimeout = .seconds(1) }
        let id = try await add(engine, server.url("file.bin"))
        let started = Date()
        await engine.start()
        let d = try await finished(engine, id)
        assertContents(d, equal: body)
        XCTAssertLessThan(Date().timeIntervalSince(started), 6, "the stall was noticed before the server woke up")
        XCTAssertEqual(d.lastError, .stalled(seconds: 1))
    }

    func testServiceUnavailableHonoursRetryAfter() async throws {
        let body = randomBody(10_000)
        let server = try serve { request, index in
            if index == 0 { return [.send(FaultServer.head(503, [("Retry-After", "2"), ("Content-Length", "0")]))] }
            return FaultServer.serve(body, for: request)
        }
        let engine = try makeEngine()
        let id = try await add(engine, server.url("file.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        assertContents(d, equal: body)
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertGreaterThanOrEqual(requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt), 1.9)
    }

    func testPersistentServerErrorsGiveUpAfterTheRetryLimit() async throws {
        let server = try serve { _, _ in [.send(FaultServer.head(500, [("Content-Length", "0")]))] }
        let engine = try makeEngine { $0.retryPolicy.maxRetries = 3 }
        let id = try await add(engine, server.url("file.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state.kind, .failed)
        XCTAssertEqual(d.reason, "server error (HTTP 500)")
        XCTAssertEqual(server.requests.count, 4)
    }

    func testServerIgnoringRangesStartsOverAndIsMarkedNotResumable() async throws {
        let body = randomBody(500_000)
        let server = try serve { request, index in
            if index == 0 {
                return [
                    .send(
                        FaultServer.head(200, [("Content-Length", "\(body.count)"), ("ETag", "\"v1\"")])
                            + Array(body[..<200_000])), .sleep(0.2), .reset,
                ]
            }
            return FaultServer.serve(body, for: request, ranges: false)
        }
        let engine = try makeEngine()
        let id = try await add(engine, server.url("file.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        assertContents(d, equal: body)
        XCTAssertEqual(d.resumable, false)
        XCTAssertEqual(d.notice, .startedOver(.rangesIgnored))
        XCTAssertNotNil(server.requests[1].headers["range"])
    }

    /// Every attempt starts over and gets as far as the one before: that is no progress, and the
    /// retries run out (they were reset by each attempt's bytes from 0, without end).
    func testAServerThatIgnoresRangesAndCutsAtTheSamePointRunsOutOfRetries() async throws {
        let body = randomBody(100_000)
        let server = try serve { _, _ in
            [
                .send(
                    FaultServer.head(200, [("Content-Length", "\(body.count)"), ("ETag", "\"v1\"")])
                        + Array(body[..<1_000]))
            ]
        }
        let engine = try makeEngine { $0.retryPolicy.maxRetries = 3 }
        let id = try await add(engine, server.url("file.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state.kind, .failed)
        XCTAssertEqual(d.reason, "the connection closed before the body was complete")
        // The first attempt, then three retries, each taking the 200 to its Range from byte 0.
        XCTAssertEqual(server.requests.count, 1 + 3)
        XCTAssertNotNil(server.requests[3].headers["range"])
    }

    func testBodyShorterThanContentLengthIsNotFinishedButRetried() async throws {
        let body = randomBody(100_000)
        let server = try serve { request, index in
            if index == 0 {
                // Claims the full length, sends 40 %, then closes cleanly.
                return [
                    .send(
                        FaultServer.head(
                            200, [("Content-Length", "\(body.count)"), ("ETag", "\"v1\""), ("Accept-Ranges", "bytes")])
                            + Array(body[..<40_000]))
                ]
            }
            return FaultServer.serve(body, for: request)
        }
        let engine = try makeEngine()
        let id = try await add(engine, server.url("file.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        assertContents(d, equal: body)
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertEqual(server.requests[1].headers["range"], "bytes=40000-")
    }

    func testHostileContentDispositionGivesASafeNameInsideTheDestination() async throws {
        let cases: [(header: String, expected: String)] = [
            ("attachment; filename=\"../../etc/passwd\"", "passwd"),
            ("attachment; filename=\"/etc/cron.d/evil\"", "evil"),
            ("attachment; filename*=UTF-8''%1B%5B2J%1B%5D0%3Bowned%07clean%1B%5B31m.txt", "clean.txt"),
            ("attachment; filename*=UTF-8''..%2F..%2F%1B%5B1mx%0Ay.sh", "xy.sh"),
            ("attachment; filename=\"..\"", "file.bin"),
            (
                "attachment; filename=\"\(String(repeating: "n", count: 400)).iso\"",
                String(repeating: "n", count: 236) + ".iso"
            ),
        ]
        let server = try serve { request, _ in
            let index = Int(request.path.split(separator: "=").last!)!
            return [
                .send(
                    FaultServer.head(200, [("Content-Length", "2"), ("Content-Disposition", cases[index].header)]) + [
                        104, 105,
                    ])
            ]
        }
        let engine = try makeEngine()
        var ids: [DownloadID] = []
        for i in cases.indices { ids.append(try await add(engine, server.url("file.bin?case=\(i)"))) }
        await engine.start()
        await engine.waitUntilIdle()
        for (i, id) in ids.enumerated() {
            let dOrNil = await engine.download(id)
            let d = try XCTUnwrap(dOrNil)
            XCTAssertEqual(d.state, .finished, "case \(i)")
            XCTAssertEqual(d.fileName, cases[i].expected, "case \(i)")
            XCTAssertEqual(((d.path ?? "") as NSString).deletingLastPathComponent, downloadDirectory)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/etc/passwd"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: downloadDirectory).count, cases.count)
    }

    func testAnEscapeInAHeaderBecomesASpaceAndNeverReachesTheName() async throws {
        let server = try serve { _, _ in
            [
                .send(
                    FaultServer.head(
                        200,
                        [("Content-Length", "2"), ("Content-Disposition", "attachment; filename=\"a\u{1B}[2Jb.txt\"")])
                        + [104, 105])
            ]
        }
        let engine = try makeEngine { $0.retryPolicy.maxRetries = 1 }
        let id = try await add(engine, server.url("x.bin"))
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, d.reason ?? "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: downloadDirectory), ["a [2Jb.txt"])
        XCTAssertEqual(server.requests.count, 1)
    }

    func testARefusedConnectionSaysWhereAndWhyInWords() async throws {
        let port = FreePort.find() // nothing listens there
        let reason = try await failureReason(of: "http://127.0.0.1:\(port)/x.bin")
        XCTAssertEqual(reason, "cannot connect to 127.0.0.1:\(port): connection refused")
    }

    /// The same over https, which goes through AsyncHTTPClient (a bare errno there).
    func testARefusedHTTPSConnectionSaysWhereToo() async throws {
        let port = FreePort.find()
        let reason = try await failureReason(of: "https://127.0.0.1:\(port)/x.bin")
        XCTAssertEqual(reason, "cannot connect to 127.0.0.1:\(port): connection refused")
    }

    /// Through a proxy it is the proxy that refused, and the reason names it, not the URL's host.
    func testARefusedProxyIsNamedAsTheProxy() async throws {
        let port = FreePort.find()
        let reason = try await failureReason(of: "http://example.org/x.bin", proxy: "http://127.0.0.1:\(port)")
        XCTAssertEqual(reason, "cannot connect to the proxy 127.0.0.1:\(port): connection refused")
    }

    /// Why a download of `url` failed (after one retry), with `http_proxy` set to `proxy`.
    func failureReason(of url: String, proxy: String? = nil, line: UInt = #line) async throws -> String? {
        let engine = try makeEngine {
            $0.retryPolicy.maxRetries = 1
            if let proxy { $0.proxies = ProxyEnvironment(environment: ["http_proxy": proxy]) }
        }
        let id = try await add(engine, url)
        await engine.start()
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state.kind, .failed, line: line)
        return d.reason
    }

    func testRedirectsAreFollowedAndNonHTTPSchemesRefused() async throws {
        let body = randomBody(5000)
        let server = try serve { request, _ in
            switch request.path {
            case "/start": return [.send(FaultServer.head(302, [("Location", "/middle"), ("Content-Length", "0")]))]
            case "/middle":
                return [.send(FaultServer.head(301, [("Location", "/final.bin"), ("Content-Length", "0")]))]
            case "/evil":
                return [.send(FaultServer.head(302, [("Location", "file:///etc/passwd"), ("Content-Length", "0")]))]
            case "/loop": return [.send(FaultServer.head(302, [("Location", "/loop"), ("Content-Length", "0")]))]
            default: return FaultServer.serve(body, for: request)
            }
        }
        let engine = try makeEngine()
        let ok = try await add(engine, server.url("start"))
        let evil = try await add(engine, server.url("evil"))
        let loop = try await add(engine, server.url("loop"))
        await engine.start()
        await engine.waitUntilIdle()
        let a = await engine.download(ok)
        assertContents(try XCTUnwrap(a), equal: body)
        XCTAssertEqual(a?.fileName, "final.bin")
        XCTAssertEqual(a?.finalURL, server.url("final.bin"))
        let b = await engine.download(evil)
        XCTAssertEqual(b?.state.kind, .failed)
        XCTAssertEqual(b?.reason, "the server redirected to an unsupported scheme 'file'; refused")
        let c = await engine.download(loop)
        XCTAssertEqual(c?.state.kind, .failed)
        XCTAssertEqual(c?.reason, "too many redirects (more than 20)")
    }

    func testRangeNotSatisfiableAtTheFullSizeCompletesWithoutDownloading() async throws {
        let body = randomBody(3000)
        let server = try serve { request, _ in
            if request.headers["range"] == "bytes=3000-" {
                return [.send(FaultServer.head(416, [("Content-Range", "bytes */3000"), ("Content-Length", "0")]))]
            }
            return FaultServer.serve(body, for: request)
        }
        // A previous run wrote every byte but stopped before the final rename.
        let statePath = dir.path + "/state/state.json"
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        let state = """
            {"version":1,"downloads":[{"id":"abcdef","url":"\(server.url("whole.bin"))",\
            "directory":"\(downloadDirectory!)",
            "fileName":"whole.bin","etag":"\\"v1\\"","state":"downloading","totalBytes":3000}]}
            """
        try state.write(toFile: statePath, atomically: true, encoding: .utf8)
        try Data(body).write(to: URL(fileURLWithPath: downloadDirectory + "/whole.bin.part"))
        let engine = try makeEngine()
        let id = DownloadID(rawValue: "abcdef")
        let reloaded = await engine.download(id)
        XCTAssertEqual(reloaded?.receivedBytes, 3000)
        XCTAssertEqual(reloaded?.state, .waiting)
        await engine.start()
        let d = try await finished(engine, id)
        assertContents(d, equal: body)
        XCTAssertEqual(server.requests.count, 1, "only the range probe was sent")
        XCTAssertEqual(partFiles(), [])
    }
}

/// Proxies named by the environment carry the request (the fault server plays the proxy).
final class ProxyTests: FaultServerTestCase {
    func testHTTPProxyFromTheEnvironmentIsUsedAndNoProxyBypassesIt() async throws {
        let body: [UInt8] = Array("through the proxy".utf8)
        let proxy = try serve { request, _ in
            XCTAssertEqual(request.headers["host"], "downloads.example.invalid")
            return FaultServer.serve(body, for: request)
        }
        let direct = try serve { request, _ in FaultServer.serve(Array("direct".utf8), for: request) }
        let engine = try makeEngine {
            $0.proxies = ProxyEnvironment(environment: [
                "http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": "127.0.0.1",
            ])
        }
        let viaProxy = try await add(engine, "http://downloads.example.invalid/file.bin")
        let bypass = try await add(engine, direct.url("d.bin"))
        await engine.start()
        let a = try await finished(engine, viaProxy)
        let b = try await finished(engine, bypass)
        XCTAssertEqual(a.state, .finished, a.reason ?? "")
        XCTAssertEqual(TestFiles.contents(a.path!).map(Array.init), body)
        XCTAssertEqual(TestFiles.contents(b.path!).map { String(decoding: $0, as: UTF8.self) }, "direct")
        XCTAssertEqual(proxy.requests.map(\.method), ["CONNECT", "GET"], "tunnelled through the proxy")
        XCTAssertEqual(proxy.requests.first?.path, "downloads.example.invalid:80")
        XCTAssertEqual(direct.requests.count, 1)
    }
}
