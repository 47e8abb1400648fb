import Foundation
import HaulCore
import HaulLoopback
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// One file from several sources: mirrors the user gave, mirrors a server named, a mirror that
/// serves another size, other bytes, or bad bytes caught by piece hashes. Each download ends
/// byte-identical or failed with a reason, never mixed, and credentials never reach a mirror.
final class MirrorEngineTests: FaultServerTestCase {
    static let body = TestFiles.randomBytes(8 << 20)
    var body: [UInt8] { Self.body }

    /// A server of `bytes` that caps each connection (64 KiB every 20 ms), with its own ETag.
    func mirror(_ bytes: [UInt8]? = nil, etag: String) throws -> FaultServer {
        let served = bytes ?? body
        return try serve { request, _ in FaultServer.throttled(served, for: request, etag: etag) }
    }

    func add(
        _ engine: Engine, _ url: String, mirrors: [String], origin: DownloadSource.Origin = .user,
        headers: [RequestHeader] = [], checksum: Checksum? = nil, pieces: PieceHashes? = nil
    ) async throws -> DownloadID {
        var request = DownloadRequest(url: url, directory: downloadDirectory, headers: headers, checksum: checksum)
        request.sources = mirrors.map { DownloadSource(url: $0, origin: origin) }
        request.pieceHashes = pieces
        return try await engine.perform(.add([request]))[0]
    }

    /// Bytes of the file each server sent in answers to range requests.
    func bytesServed(_ server: FaultServer) -> Int {
        server.requests.compactMap { FaultServer.requestedRange($0, count: body.count)?.count }.reduce(0, +)
    }

    func expectedFile() -> String {
        let path = dir.path + "/expected.bin"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: Data(body))
        }
        return path
    }

    /// Fetches `url` with `mirrors` on a new engine; checks that it finished with the file's bytes.
    func fetchIdentical(_ url: String, mirrors: [String], file: StaticString = #filePath, line: UInt = #line)
        async throws -> Download
    {
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, url, mirrors: mirrors)
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))", file: file, line: line)
        assertSameContents(try XCTUnwrap(d.path), expectedFile(), file: file, line: line)
        return d
    }

    func testBytesComeFromEverySourceAndTheFileIsIdentical() async throws {
        let servers = try [mirror(etag: "\"a\""), mirror(etag: "\"b\""), mirror(etag: "\"c\"")]
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(
            engine, servers[0].url("f.bin"), mirrors: [servers[1].url("f.bin"), servers[2].url("f.bin")])
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expectedFile())
        for (index, server) in servers.enumerated() {
            XCTAssertGreaterThan(bytesServed(server), 256 << 10, "source \(index) served a share")
        }
        XCTAssertEqual(d.request.sources.map(\.isUsable), [true, true])
        XCTAssertTrue(d.request.sources.allSatisfy { $0.bytes > 0 }, "\(d.request.sources)")
        // A mirror's requests carry no If-Range: its ETag is its own server's.
        XCTAssertTrue(servers[1].requests.allSatisfy { $0.headers["if-range"] == nil })
    }

    func testAMirrorOfAnotherSizeIsDroppedWithAReason() async throws {
        let good = try mirror(etag: "\"a\"")
        let other = try mirror(Array(body.prefix(body.count - 1)), etag: "\"b\"")
        let d = try await fetchIdentical(good.url("f.bin"), mirrors: [other.url("f.bin")])
        XCTAssertEqual(
            d.request.sources.first?.problem, .sizeDiffers(size: Int64(body.count - 1), expected: Int64(body.count)))
        XCTAssertEqual(d.request.sources.first?.bytes, 0)
    }

    func testAMirrorThatAnswers404IsDroppedAndTheDownloadGoesOn() async throws {
        let good = try mirror(etag: "\"a\"")
        let missing = try serve { _, _ in [.send(FaultServer.head(404, [("Content-Length", "0")]))] }
        let d = try await fetchIdentical(good.url("f.bin"), mirrors: [missing.url("f.bin")])
        XCTAssertEqual(d.request.sources.first?.problem, .failed(.status(404)))
    }

    func testAMirrorWithOtherBytesOfTheSameSizeIsCaughtByTheOverlapAndDropped() async throws {
        let good = try mirror(etag: "\"a\"")
        let other = try mirror(TestFiles.randomBytes(body.count), etag: "\"b\"")
        let d = try await fetchIdentical(good.url("f.bin"), mirrors: [other.url("f.bin")])
        XCTAssertEqual(d.request.sources.first?.problem, .otherContent)
        XCTAssertEqual(d.request.sources.first?.bytes, 0, "none of its bytes were kept")
    }

    func testCredentialsNeverReachAMirror() async throws {
        let primary = try mirror(etag: "\"a\"")
        let named = try mirror(etag: "\"b\"")
        let found = try mirror(etag: "\"c\"")
        let engine = try makeEngine()
        await engine.start()
        let headers = try ["Authorization: Bearer s3cret", "Cookie: session=s3cret", "X-Site: kept"].map {
            try RequestHeader.parse($0)
        }
        let userMirror = "http://user:pw@" + named.url("f.bin").dropFirst("http://".count)
        let id = try await add(engine, primary.url("f.bin"), mirrors: [String(userMirror)], headers: headers)
        let second = try await add(
            engine, primary.url("g.bin"), mirrors: [found.url("f.bin")], origin: .link,
            headers: headers)
        for id in [id, second] {
            let d = try await finished(engine, id)
            XCTAssertEqual(d.state, .finished)
        }
        XCTAssertTrue(primary.requests.allSatisfy { $0.headers["authorization"] == "Bearer s3cret" })
        XCTAssertFalse(named.requests.isEmpty)
        for request in named.requests {
            // The user's own mirror gets the credentials in its own URL, never the primary's.
            XCTAssertEqual(request.headers["authorization"], "Basic " + Data("user:pw".utf8).base64EncodedString())
            XCTAssertNil(request.headers["cookie"])
            XCTAssertEqual(request.headers["x-site"], "kept")
        }
        XCTAssertFalse(found.requests.isEmpty)
        for request in found.requests {
            XCTAssertNil(request.headers["authorization"])
            XCTAssertNil(request.headers["cookie"])
            XCTAssertNil(request.headers["x-site"], "a mirror a server named gets none of the user's headers")
        }
    }

    func testMirrorsAndADigestNamedOnTheRedirectAreUsed() async throws {
        let a = try mirror(etag: "\"a\"")
        let b = try mirror(etag: "\"b\"")
        let digest = Data(TestDigest.sha256(body)).base64EncodedString()
        let redirector = try serve { _, _ in
            [
                .send(
                    FaultServer.head(
                        302,
                        [
                            ("Location", a.url("f.bin")), ("Content-Length", "0"),
                            ("Link", "<\(b.url("f.bin"))>; rel=duplicate; pri=1; geo=de"),
                            ("Link", "<ftp://elsewhere/f.bin>; rel=duplicate; pri=2"),
                            ("Digest", "SHA-256=\(digest)"),
                        ]))
            ]
        }
        let d = try await fetchIdentical(redirector.url("get/f.bin"), mirrors: [])
        XCTAssertEqual(d.request.sources.map(\.url), [b.url("f.bin")], "the ftp mirror is skipped")
        XCTAssertEqual(d.request.sources.first?.origin, .link)
        XCTAssertGreaterThan(bytesServed(b), 0)
        XCTAssertEqual(d.checksum?.algorithm, .sha256, "the Digest header became the checksum")
    }

    func testNoMirrorsIgnoresWhatServersName() async throws {
        let a = try mirror(etag: "\"a\"")
        let b = try mirror(etag: "\"b\"")
        let redirector = try serve { _, _ in
            [
                .send(
                    FaultServer.head(
                        302,
                        [
                            ("Location", a.url("f.bin")), ("Content-Length", "0"),
                            ("Link", "<\(b.url("f.bin"))>; rel=duplicate"), ("Digest", "SHA-256=AAAA"),
                        ]))
            ]
        }
        let engine = try makeEngine()
        await engine.start()
        var request = DownloadRequest(url: redirector.url("get/f.bin"), directory: downloadDirectory)
        request.ignoresMirrorHeaders = true
        let id = try await engine.perform(.add([request]))[0]
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished)
        XCTAssertTrue(d.request.sources.isEmpty)
        XCTAssertTrue(b.requests.isEmpty)
    }

    /// Piece hashes of `body`, 1 MiB pieces.
    func pieces(of bytes: [UInt8]) -> PieceHashes {
        let length = 1 << 20
        let hashes = stride(from: 0, to: bytes.count, by: length).map { start in
            TestDigest.hex(TestDigest.sha256(bytes[start..<min(bytes.count, start + length)]))
        }
        return PieceHashes(algorithm: .sha256, length: Int64(length), hashes: hashes)
    }

    /// The file with every byte after its first MiB changed: a mirror whose every piece is bad,
    /// though the bytes an overlap check compares (the first response's, at the start) are right.
    func corrupted() -> [UInt8] {
        var bad = body
        for i in (1 << 20)..<bad.count where i % 4096 == 0 { bad[i] ^= 0xFF }
        return bad
    }

    /// Whether `server` sent any part of the file past its first MiB.
    func servedBadBytes(_ server: FaultServer) -> Bool {
        server.requests.contains {
            (FaultServer.requestedRange($0, count: body.count)?.upperBound ?? 0) > (1 << 20) + 1
        }
    }

    func testPieceHashesCatchACorruptMirrorWhichIsBannedAndTheFileEndsIdentical() async throws {
        let servers = try [mirror(etag: "\"a\""), mirror(etag: "\"b\""), mirror(corrupted(), etag: "\"c\"")]
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(
            engine, servers[0].url("f.bin"), mirrors: [servers[1].url("f.bin"), servers[2].url("f.bin")],
            origin: .metalink, pieces: pieces(of: body))
        let d = try await finished(engine, id, timeout: 60)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expectedFile())
        XCTAssertTrue(servedBadBytes(servers[2]), "the corrupt mirror was used")
        XCTAssertEqual(d.request.sources[1].banned, true, "\(d.request.sources)")
        guard case .badPiece? = d.request.sources[1].problem else { return XCTFail("\(d.request.sources)") }
        XCTAssertFalse(d.request.sources[0].banned)
        XCTAssertLessThan(d.request.sources[1].bytes, 1 << 20, "the banned mirror's bad pieces are not counted")
    }

    func testWithOnlyAWholeFileHashACorruptMirrorFailsTheDownloadNamingTheSources() async throws {
        let good = try mirror(etag: "\"a\"")
        let bad = try mirror(corrupted(), etag: "\"b\"")
        let engine = try makeEngine()
        await engine.start()
        let checksum = try Checksum(
            .sha256, hex: TestDigest.hex(TestDigest.sha256(body)))
        let id = try await add(engine, good.url("f.bin"), mirrors: [bad.url("f.bin")], checksum: checksum)
        let d = try await finished(engine, id, timeout: 60)
        XCTAssertTrue(servedBadBytes(bad), "the corrupt mirror was used")
        XCTAssertTrue(d.state.isFailed)
        let reason = d.reason ?? ""
        XCTAssertTrue(reason.contains("checksum mismatch"), reason)
        for server in [good, bad] {
            XCTAssertTrue(reason.contains("127.0.0.1:\(server.port)"), "the reason names the sources: \(reason)")
        }
        XCTAssertTrue(partFiles().isEmpty, "the bad bytes never get the final name")
    }

    func testABadPieceIsBlamedOnTheSourceInEveryBadPieceElseOnASoleWriter() {
        XCTAssertEqual(PieceCheck.blame([[0, 2], [1, 2], [2]]), [2])
        XCTAssertEqual(PieceCheck.blame([[0, 1], [2]]), [2])
        XCTAssertEqual(PieceCheck.blame([[0, 1], [1, 2], [0, 2]]), [], "no one to blame yet: fetched again")
        XCTAssertEqual(PieceCheck.blame([]), [])
        XCTAssertEqual(
            PieceCheck.map(total: 10, missing: [6..<8, 2..<4]),
            [
                Segment(start: 0, end: 2, received: 2), Segment(start: 2, end: 4),
                Segment(start: 4, end: 6, received: 2),
                Segment(start: 6, end: 8), Segment(start: 8, end: 10, received: 2),
            ])
    }

    /// A Metalink 4 document of `files` (name, URLs), with SHA-256 hashes of `body` and 1 MiB piece hashes.
    func metalink(_ files: [(String, [String])]) -> String {
        let hash = TestDigest.hex(TestDigest.sha256(body))
        let pieceLines = pieces(of: body).hashes.map { "<hash>\($0)</hash>" }.joined()
        var text = "<?xml version=\"1.0\"?><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">"
        for (name, urls) in files {
            text += "<file name=\"\(name)\"><size>\(body.count)</size><hash type=\"sha-256\">\(hash)</hash>"
            text += "<pieces length=\"1048576\" type=\"sha-256\">\(pieceLines)</pieces>"
            for (i, url) in urls.enumerated() { text += "<url priority=\"\(i + 1)\">\(url)</url>" }
            text += "</file>"
        }
        return text + "</metalink>"
    }

    func testAURLThatServesAMetalinkBecomesItsFilesFetchedFromTheirSources() async throws {
        let a = try mirror(etag: "\"a\"")
        let b = try mirror(etag: "\"b\"")
        let document = metalink([
            ("one.bin", [a.url("f.bin"), b.url("f.bin")]), ("../two.bin", [b.url("f.bin"), "ftp://x/f.bin"]),
        ])
        let server = try serve { _, _ in
            [
                .send(
                    FaultServer.head(
                        200, [("Content-Type", Metalink.mediaType), ("Content-Length", "\(document.utf8.count)")])
                        + Array(document.utf8))
            ]
        }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(
            engine, server.url("f.meta4"), mirrors: [], headers: [try RequestHeader.parse("Cookie: s=1")])
        let d = try await finished(engine, id)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        XCTAssertEqual(d.fileName, "one.bin")
        XCTAssertEqual(d.url, a.url("f.bin"))
        XCTAssertEqual(d.previousURLs, [server.url("f.meta4")], "where it came from")
        XCTAssertEqual(
            d.notice.map { ReasonText.notice($0, now: nil) },
            "the Metalink's ftp URLs are skipped: haul fetches over http and https")
        XCTAssertEqual(d.request.sources.map(\.url), [b.url("f.bin")])
        XCTAssertNotNil(d.request.pieceHashes)
        assertSameContents(try XCTUnwrap(d.path), expectedFile())
        XCTAssertTrue(a.requests.allSatisfy { $0.headers["cookie"] == nil }, "the Metalink's URLs get no cookie")
        let all = try await engine.snapshot().downloads.all
        let two = try XCTUnwrap(all.first { $0.id != id })
        let second = try await finished(engine, two.id)
        XCTAssertEqual(second.state, .finished)
        XCTAssertEqual(second.fileName, "two.bin", "a name with folders keeps its last part")
        assertSameContents(try XCTUnwrap(second.path), expectedFile())
    }

    func testAMetalinkNamedByALinkHeaderGivesMirrorsAndPieceHashes() async throws {
        let b = try mirror(etag: "\"b\"")
        let c = try mirror(etag: "\"c\"")
        let document = metalink([("f.bin", [b.url("f.bin"), c.url("f.bin")])])
        let meta = try serve { _, _ in
            [.send(FaultServer.head(200, [("Content-Length", "\(document.utf8.count)")]) + Array(document.utf8))]
        }
        let body = body
        let a = try serve { request, _ in
            var steps = FaultServer.throttled(body, for: request, etag: "\"a\"")
            if case .send(let head) = steps[0], request.headers["range"] == nil {
                let text = String(decoding: head, as: UTF8.self).replacingOccurrences(
                    of: "\r\n\r\n",
                    with:
                        "\r\nLink: <\(meta.url("f.meta4"))>; rel=describedby; type=\"application/metalink4+xml\"\r\n\r\n"
                )
                steps[0] = .send(Array(text.utf8))
            }
            return steps
        }
        let d = try await fetchIdentical(a.url("f.bin"), mirrors: [])
        XCTAssertEqual(Set(d.request.sources.map(\.url)), [b.url("f.bin"), c.url("f.bin")])
        XCTAssertEqual(d.request.sources.first?.origin, .metalink)
        XCTAssertNotNil(d.request.pieceHashes)
        XCTAssertEqual(d.checksum?.algorithm, .sha256)
    }

    func testAMirrorWhoseBytesChangeAfterItsFirstRequestsEndsAsOneVersion() async throws {
        let good = try mirror(etag: "\"a\"")
        let changed = TestFiles.randomBytes(body.count)
        let body = body
        // Its first two answers are of this file; every later one is of another version, with
        // another ETag, as a "latest" link behind a cache that was refreshed.
        let flaky = try serve { request, index in
            index < 2
                ? FaultServer.throttled(body, for: request, etag: "\"old\"")
                : FaultServer.throttled(changed, for: request, etag: "\"new\"")
        }
        let d = try await fetchIdentical(good.url("f.bin"), mirrors: [flaky.url("f.bin")])
        if flaky.requests.count > 2 { XCTAssertEqual(d.request.sources.first?.problem, .otherContent) }
    }

    func testAMirrorThatNeverAnswersDoesNotHoldItsPieceAndTheDownloadFinishes() async throws {
        let good = try mirror(etag: "\"a\"")
        // A server that speaks plain HTTP where the URL says https: the TLS handshake is never
        // answered, as with a mirror that accepts connections and hangs.
        let plain = try mirror(etag: "\"b\"")
        let hanging = "https://" + plain.url("f.bin").dropFirst("http://".count)
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, good.url("f.bin"), mirrors: [String(hanging)])
        // Well before the stall timeout (5 s here, 30 s by default) ends the hanging request.
        let d = try await finished(engine, id, timeout: 4.5)
        XCTAssertEqual(d.state, .finished, "\(String(describing: d.failureReason))")
        assertSameContents(try XCTUnwrap(d.path), expectedFile())
        XCTAssertEqual(d.request.sources.first?.bytes, 0)
    }

    /// `steps` with `field: value` added to the response head.
    static func adding(_ field: String, _ value: String, to steps: [FaultServer.Step]) -> [FaultServer.Step] {
        guard case .send(let head) = steps.first else { return steps }
        let text = String(decoding: head, as: UTF8.self).replacingOccurrences(
            of: "\r\n\r\n", with: "\r\n\(field): \(value)\r\n\r\n")
        return [.send(Array(text.utf8))] + steps.dropFirst()
    }

    func testAMirrorWhoseCopyHasAnotherDateIsDropped() async throws {
        let body = body
        let first = try serve { request, _ in
            Self.adding(
                "Last-Modified", "Sat, 28 Nov 2026 06:00:00 GMT",
                to: FaultServer.throttled(body, for: request, etag: nil))
        }
        let older = try serve { request, _ in
            Self.adding(
                "Last-Modified", "Fri, 27 Nov 2026 06:00:00 GMT",
                to: FaultServer.throttled(body, for: request, etag: "\"b\""))
        }
        let d = try await fetchIdentical(first.url("f.bin"), mirrors: [older.url("f.bin")])
        XCTAssertEqual(d.request.sources.first?.problem, .dateDiffers)
    }

    func testAResumedDownloadChecksEachMirrorAgainstTheBytesOnDiskAndEndsIdentical() async throws {
        let body = body
        // About 1.3 MB/s per connection: the download is still running when it is paused.
        let servers = try ["a", "b"].map { etag in
            try serve { request, _ in FaultServer.throttled(body, for: request, etag: "\"\(etag)\"", pause: 0.05) }
        }
        let engine = try makeEngine()
        await engine.start()
        let id = try await add(engine, servers[0].url("f.bin"), mirrors: [servers[1].url("f.bin")])
        _ = try await waitFor(engine, id) { $0.receivedBytes > 2 << 20 }
        _ = try await engine.perform(.pause(.ids([id])))
        let paused = try await waitFor(engine, id) { $0.state == .paused(by: .user) }
        XCTAssertNotNil(paused.segments, "paused in pieces")
        let before = servers[1].requests.count
        _ = try await engine.perform(.resume(.ids([id])))
        let d = try await finished(engine, id, timeout: 60)
        XCTAssertEqual(d.state, .finished)
        assertSameContents(try XCTUnwrap(d.path), expectedFile())
        // After the resume the mirror first showed it serves the bytes on disk: a request of at
        // most 16 KiB for a range already written.
        let after = servers[1].requests.dropFirst(before)
        let checks = after.compactMap { FaultServer.requestedRange($0, count: body.count) }.filter {
            $0.count <= 16 << 10
        }
        XCTAssertFalse(checks.isEmpty, "\(after.map { $0.headers["range"] ?? "-" })")
    }
}
