import Foundation
import HaulCore
import HaulLoopback
import HaulTestSupport
import Synchronization
import XCTest

@testable import HaulEngine

/// Where a download's bytes come from, against servers written for the purpose: a link that
/// expires and a new one for the same file or another, checksums of every type, cookies that go
/// only where they belong.
final class SourcesEngineTests: FaultServerTestCase {
    func body(_ n: Int, seed: UInt8 = 0) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) } }

    /// A server whose `/old` link serves `old` until it has sent `expireAfter` bytes, then
    /// answers 403 as an expired signed URL does; `/new` serves `new` (with `newETag`).
    func expiringServer(
        old: [UInt8], new: [UInt8], expireAfter: Int, oldETag: String = "\"v1\"", newETag: String = "\"v1\""
    ) throws -> FaultServer {
        let expired = Atomic<Bool>(false)
        return try serve { request, _ in
            if request.path.hasPrefix("/old") {
                if expired.load(ordering: .relaxed) { return [.send(FaultServer.head(403, [("Content-Length", "0")]))] }
                expired.store(true, ordering: .relaxed)
                let steps = FaultServer.serve(old, for: request, etag: oldETag)
                guard case .send(let bytes) = steps[0] else { return steps }
                let headLength = bytes.count - old.count
                return [.send(Array(bytes.prefix(headLength + expireAfter))), .sleep(0.1), .reset]
            }
            return FaultServer.serve(new, for: request, etag: newETag)
        }
    }

    func testANewLinkToTheSameFileResumesByRangeWhereTheOldOneStopped() async throws {
        let file = body(3_000_000)
        let server = try expiringServer(old: file, new: file, expireAfter: 1_000_000)
        let engine = try makeEngine()
        let id = try await add(engine, server.url("old/file.bin?sig=1"), connections: 1)
        await engine.start()
        let failed = try await finished(engine, id)
        XCTAssertEqual(failed.state.kind, .failed)
        XCTAssertEqual(failed.failureReason, .status(403))
        XCTAssertTrue(failed.mayNeedNewLink)
        let kept = try XCTUnwrap(PartFile.size(at: XCTUnwrap(failed.partPath)))
        XCTAssertEqual(kept, 1_000_000)

        try await engine.perform(.refresh(id, url: server.url("new/file.bin?sig=2")))
        let done = try await finished(engine, id)
        XCTAssertEqual(done.state, .finished, done.reason ?? "")
        XCTAssertEqual(TestFiles.contents(done.path!).map(Array.init), file)
        XCTAssertEqual(done.previousURLs, [server.url("old/file.bin?sig=1")])
        XCTAssertFalse(done.linkUnchecked)
        let toNew = server.requests.filter { $0.path.hasPrefix("/new") }
        XCTAssertEqual(toNew.map { $0.headers["range"] }, ["bytes=0-0", "bytes=\(kept)-"], "checked, then resumed")
        XCTAssertNil(toNew[0].headers["if-range"], "the check compares the validators itself")
        XCTAssertEqual(done.notice, nil)
    }

    func testANewLinkToAnotherFileStartsOverAndSaysWhy() async throws {
        let old = body(3_000_000)
        let new = body(2_000_000, seed: 7)
        let server = try expiringServer(
            old: old, new: new, expireAfter: 1_000_000, oldETag: "\"a\"", newETag: "\"b\"")
        let engine = try makeEngine()
        let id = try await add(engine, server.url("old/f.bin"), connections: 1)
        await engine.start()
        _ = try await finished(engine, id)
        var notices: [Notice] = []
        let events = await engine.subscribe()
        // Listens until the download ends after a notice (an earlier end may still be on its way):
        // cancelling a listener while events flow can deadlock Swift's runtime (seen once in CI).
        let listening = Task {
            for await event in events {
                switch event {
                case .notice(_, let notice): notices.append(notice)
                case .updated(let d) where d.id == id && d.state.isFailed: return notices
                case .updated(let d) where d.id == id && d.state == .finished && !notices.isEmpty: return notices
                default: continue
                }
            }
            return notices
        }
        try await engine.perform(.refresh(id, url: server.url("new/f.bin")))
        let done = try await finished(engine, id)
        let heard = await TimeLimit.run(.seconds(10)) { _ = await listening.value }
        guard heard else { return XCTFail("no notice came before the download ended") }
        XCTAssertEqual(done.state, .finished, done.reason ?? "")
        XCTAssertEqual(TestFiles.contents(done.path!).map(Array.init), new, "the bytes of two files are never mixed")
        let seen = await listening.value
        XCTAssertTrue(
            seen.contains(.otherFileAtNewLink(size: 2_000_000, was: 3_000_000)), "\(seen)")
        XCTAssertEqual(
            ReasonText.notice(.otherFileAtNewLink(size: 2_000_000, was: 3_000_000), now: nil),
            "the new link serves a different file: 1.9 MiB, was 2.9 MiB; started over")
        let toNew = server.requests.filter { $0.path.hasPrefix("/new") }.map { $0.headers["range"] }
        XCTAssertEqual(toNew, ["bytes=0-0", nil], "after the check, the whole new file")
    }

    func testEveryPieceOfASegmentedDownloadGoesOnFromANewLink() async throws {
        let file = TestFiles.randomBytes(8 << 20)
        let server = try serve { request, _ in FaultServer.throttled(file, for: request) }
        let engine = try makeEngine()
        let id = try await add(engine, server.url("old/big.bin"))
        await engine.start()
        try await waitFor(engine, id) { ($0.activeConnections ?? 0) >= 3 && $0.receivedBytes > 2 << 20 }
        try await engine.perform(.pause(.ids([id])))
        let paused = try await waitFor(engine, id) { ($0.segments?.received ?? 0) > 1 << 20 }
        let before = server.requests.count

        try await engine.perform(.refresh(id, url: server.url("new/big.bin")))
        let stillPaused = await engine.download(id)
        XCTAssertEqual(stillPaused?.state.kind, .paused, "a paused download stays paused")
        try await engine.perform(.resume(.ids([id])))
        let done = try await finished(engine, id, timeout: 60)
        XCTAssertEqual(done.state, .finished, done.reason ?? "")
        XCTAssertEqual(TestFiles.contents(done.path!).map(Array.init), file)
        let ranges = server.requests.dropFirst(before).filter { $0.path.hasPrefix("/new") }.compactMap {
            FaultServer.requestedRange($0, count: file.count)
        }
        XCTAssertEqual(ranges.first, 0..<1, "the check")
        let fetched = ranges.dropFirst().reduce(0) { $0 + $1.count }
        let had = try XCTUnwrap(paused.segments?.received)
        XCTAssertLessThanOrEqual(Int64(fetched), Int64(file.count) - had + (1 << 20), "the saved pieces were kept")
        XCTAssertTrue(server.requests.dropFirst(before).allSatisfy { $0.path.hasPrefix("/new") })
    }

    // MARK: Checksums

    func digest(_ bytes: [UInt8], _ algorithm: ChecksumAlgorithm) throws -> String {
        let path = dir.path + "/digest-input"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try FileChecksum.digest(of: path, algorithm)
    }

    func testEveryChecksumTypePassesAndFailsAsItShould() async throws {
        let file = body(300_000)
        let server = try serve { request, _ in FaultServer.serve(file, for: request) }
        let engine = try makeEngine()
        await engine.start()
        for algorithm in ChecksumAlgorithm.allCases {
            let right = try Checksum(algorithm, hex: try digest(file, algorithm))
            let good = try await add(engine, server.url("\(algorithm.rawValue).bin"), checksum: right)
            let passed = try await finished(engine, good)
            XCTAssertEqual(passed.state, .finished, "\(algorithm): \(passed.reason ?? "")")

            let wrongHex = String(repeating: "0", count: algorithm.hexDigits)
            let bad = try await add(
                engine, server.url("bad-\(algorithm.rawValue).bin"), checksum: try Checksum(algorithm, hex: wrongHex))
            let failed = try await finished(engine, bad)
            XCTAssertEqual(failed.state.kind, .failed, "\(algorithm)")
            XCTAssertEqual(
                failed.reason, "\(algorithm.displayName) checksum mismatch: expected \(wrongHex), got \(right.hex)")
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: downloadDirectory + "/bad-\(algorithm.rawValue).bin"),
                "bad bytes never get the final name")
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: downloadDirectory + "/bad-\(algorithm.rawValue).bin.part"))
        }
        let requests = server.requests.count
        XCTAssertEqual(requests, 2 * ChecksumAlgorithm.allCases.count, "a mismatch is not retried by itself")
    }

    func testRetryAfterAMismatchFetchesTheFileAgainFromTheStart() async throws {
        let file = body(2_000_000)
        let server = try serve { request, _ in FaultServer.serve(file, for: request) }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(
            engine, server.url("x.bin"), checksum: try Checksum(.md5, hex: String(repeating: "1", count: 32)))
        _ = try await finished(engine, id)
        try await engine.perform(.retry(.ids([id])))
        try await waitFor(engine, id) { $0.state.isFailed && $0.retries == 0 && server.requests.count >= 2 }
        XCTAssertTrue(server.requests.allSatisfy { $0.headers["range"] == nil }, "each attempt starts over")
    }

    func testSHA224MatchesTheSystemsSha224sum() async throws {
        for size in [0, 3, 55, 56, 63, 64, 65, 1_000_003] {
            let bytes = body(size, seed: UInt8(size & 255))
            let path = dir.path + "/s\(size)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let system = try await ChildProcess.run(
                "/usr/bin/sha224sum", [path], environment: ["PATH": "/bin:/usr/bin"], in: dir.path)
            XCTAssertEqual(
                try FileChecksum.digest(of: path, .sha224), String(system.stdout.prefix(56)), "\(size) bytes")
        }
        XCTAssertEqual(
            try digest(Array("abc".utf8), .sha224), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
    }

    // MARK: Cookies

    func testCookiesGoOnlyWhereTheyBelongAndResponseCookiesAreKeptForLaterRequests() async throws {
        let file = body(1000)
        let server = try serve { request, _ in
            if request.path.hasPrefix("/login") {
                return [
                    .send(
                        FaultServer.head(
                            302,
                            [
                                ("Location", "/files/x.bin"), ("Set-Cookie", "session=s3cr3t; Path=/; HttpOnly"),
                                ("Set-Cookie", "elsewhere=1; Domain=other.example"), ("Content-Length", "0"),
                            ]))
                ]
            }
            return FaultServer.serve(file, for: request)
        }
        let cookies = dir.path + "/cookies.txt"
        try """
        # Netscape HTTP Cookie File
        127.0.0.1\tFALSE\t/\tFALSE\t0\tsite\t1
        127.0.0.1\tFALSE\t/files\tFALSE\t0\tfolder\t2
        127.0.0.1\tFALSE\t/private\tFALSE\t0\tprivate\t3
        127.0.0.1\tFALSE\t/\tTRUE\t0\tsecure\t4
        example.org\tFALSE\t/\tFALSE\t0\tforeign\t5
        """.write(toFile: cookies, atomically: true, encoding: .utf8)
        let engine = try makeEngine()
        let id = try await engine.perform(
            .add([DownloadRequest(url: server.url("login"), directory: downloadDirectory, cookieFile: cookies)]))[0]
        await engine.start()
        let done = try await finished(engine, id)
        XCTAssertEqual(done.state, .finished, done.reason ?? "")
        XCTAssertEqual(server.requests.map { $0.headers["cookie"] }, ["site=1", "folder=2; site=1; session=s3cr3t"])
        await engine.shutdown()
        let state = try String(contentsOfFile: dir.path + "/state/state.json", encoding: .utf8)
        XCTAssertFalse(state.contains("s3cr3t"), "cookies from responses are never stored")
    }

    func testTheSavedCookieFileServesDownloadsWithoutOneOfTheirOwn() async throws {
        let server = try serve { request, _ in FaultServer.serve([1, 2, 3], for: request) }
        let cookies = dir.path + "/saved.txt"
        try "127.0.0.1\tFALSE\t/\tFALSE\t0\tsaved\tyes\n".write(toFile: cookies, atomically: true, encoding: .utf8)
        let engine = try makeEngine()
        try await engine.perform(.setCookieFile(cookies))
        let id = try await add(engine, server.url("a.bin"))
        await engine.start()
        _ = try await finished(engine, id)
        XCTAssertEqual(server.requests.first?.headers["cookie"], "saved=yes")
        do {
            try await engine.perform(.setCookieFile(dir.path + "/missing.txt"))
            XCTFail("a missing cookie file was accepted")
        } catch {
            XCTAssertEqual(error.message, "cannot read the cookie file \(dir.path)/missing.txt: no such file")
        }
    }
}
