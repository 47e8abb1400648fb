import Foundation
import HaulCore
import HaulHTTP
import HaulTestSupport
import XCTest

/// The transfer policy against a transport that answers from memory: every request it makes and
/// every way it reads a response, without a network.
final class TransferPolicyTests: XCTestCase {
    private let policy = TransferPolicy(userAgent: "haul-test", maxRedirects: 3)

    /// Opens `target` over `transport`; records the reasons the part was emptied for.
    private func open(
        _ target: inout TransferTarget, partSize: Int64?, over transport: MemoryTransport,
        emptied: inout [StartOverReason]
    ) async throws -> TransferPolicy.Opened<MemoryResponse> {
        var reasons: [StartOverReason] = []
        defer { emptied = reasons }
        return try await policy.open(&target, partSize: partSize, over: transport) { reasons.append($0) }
    }

    private func body(_ opened: TransferPolicy.Opened<MemoryResponse>, line: UInt = #line)
        -> TransferPolicy.Body<MemoryResponse>?
    {
        guard case .body(let body) = opened else {
            XCTFail("expected a body, got \(opened)", line: line)
            return nil
        }
        return body
    }

    private func failure(_ work: () async throws -> Void, line: UInt = #line) async -> TransferFailure? {
        do {
            try await work()
            XCTFail("expected a failure", line: line)
        } catch let failure as TransferFailure {
            return failure
        } catch {
            XCTFail("\(error)", line: line)
        }
        return nil
    }

    func testAFreshDownloadAsksForTheWholeFileAsItIs() async throws {
        let transport = MemoryTransport { _ in .init(200, [("Content-Length", "5"), ("Accept-Ranges", "bytes")]) }
        var target = TransferTarget(url: "http://h/f.bin", headers: [RequestHeader(name: "X-Token", value: "t")])
        var emptied: [StartOverReason] = []
        let opened = try await open(&target, partSize: nil, over: transport, emptied: &emptied)
        let request = try XCTUnwrap(transport.requests.first)
        XCTAssertEqual(request.url, "http://h/f.bin")
        XCTAssertEqual(request["user-agent"], "haul-test")
        XCTAssertEqual(request["accept-encoding"], "identity")
        XCTAssertEqual(request["x-token"], "t")
        XCTAssertNil(request["range"])
        let body = try XCTUnwrap(body(opened))
        XCTAssertEqual(body.offset, 0)
        XCTAssertEqual(body.total, 5)
        XCTAssertEqual(body.resumable, true)
        XCTAssertNil(body.startOver)
        XCTAssertFalse(body.response.wasDropped)
    }

    func testAResumeAsksForTheRestWithIfRangeAndKeepsItsOffset() async throws {
        let transport = MemoryTransport { _ in
            .init(206, [("Content-Range", "bytes 1000-1999/2000"), ("ETag", "\"v1\"")], body: [1, 2, 3])
        }
        var target = TransferTarget(url: "http://h/f.bin", etag: "\"v1\"", lastModified: "Mon")
        var emptied: [StartOverReason] = []
        let opened = try await open(&target, partSize: 1000, over: transport, emptied: &emptied)
        XCTAssertEqual(transport.requests.first?["range"], "bytes=1000-")
        XCTAssertEqual(transport.requests.first?["if-range"], "\"v1\"", "a strong ETag first")
        let body = try XCTUnwrap(body(opened))
        XCTAssertEqual(body.offset, 1000)
        XCTAssertEqual(body.total, 2000)
        XCTAssertEqual(body.resumable, true)
        XCTAssertEqual(emptied, [])

        // The body streams into its destination at its offset.
        let file = MemoryFile(Array(repeating: 9, count: 1000))
        XCTAssertEqual(
            try body.response.startWriting(to: file, at: body.offset, total: body.total),
            .finished(size: 1003, capWait: .zero))
        XCTAssertEqual(file.bytes.suffix(4), [9, 1, 2, 3])

        // A weak ETag cannot validate a range: Last-Modified goes instead.
        var weak = TransferTarget(url: "http://h/f.bin", etag: "W/\"v1\"", lastModified: "Mon")
        _ = try await open(&weak, partSize: 1000, over: transport, emptied: &emptied)
        XCTAssertEqual(transport.requests.last?["if-range"], "Mon")
    }

    func testRedirectsAreFollowedAndCredentialsStayWithTheirHost() async throws {
        let transport = MemoryTransport { request in
            switch request.url {
            case "http://user:pw@h/a": return .init(301, [("Location", "/b")])
            case "http://user:pw@h/b": return .init(302, [("Location", "http://mirror.example/c")])
            case "http://mirror.example/c": return .init(307, [("Location", "http://H/d")])
            default: return .init(200, [("Content-Length", "1")])
            }
        }
        var target = TransferTarget(
            url: "http://user:pw@h/a",
            headers: [
                RequestHeader(name: "Cookie", value: "c=1"), RequestHeader(name: "Authorization", value: "Bearer x"),
                RequestHeader(name: "X-Kept", value: "k"),
            ])
        var emptied: [StartOverReason] = []
        let bodyOpened = try await open(&target, partSize: nil, over: transport, emptied: &emptied)
        let body = try XCTUnwrap(body(bodyOpened))
        XCTAssertEqual(
            transport.requests.map(\.url),
            ["http://user:pw@h/a", "http://user:pw@h/b", "http://mirror.example/c", "http://H/d"])
        XCTAssertEqual(body.finalURL, "http://H/d")
        let (first, second, mirror, back) = (
            transport.requests[0], transport.requests[1], transport.requests[2], transport.requests[3]
        )
        XCTAssertEqual(first["authorization"], "Bearer x", "a header says otherwise than the URL's credentials")
        XCTAssertEqual(first["cookie"], "c=1")
        XCTAssertEqual(second["cookie"], "c=1", "the same host")
        XCTAssertNil(mirror["authorization"], "never to another host")
        XCTAssertNil(mirror["cookie"])
        XCTAssertEqual(mirror["x-kept"], "k", "other headers go everywhere")
        XCTAssertEqual(back["cookie"], "c=1", "back on the user's host (any case)")
        XCTAssertTrue(transport.handedOut.prefix(3).allSatisfy(\.wasDropped), "redirect bodies are dropped")

        // Without a header, the URL's credentials are HTTP Basic authentication.
        var basic = TransferTarget(url: "http://user:pw@h/a")
        _ = try await open(&basic, partSize: nil, over: transport, emptied: &emptied)
        XCTAssertEqual(transport.requests[4]["authorization"], "Basic dXNlcjpwdw==")
        XCTAssertNil(transport.requests[6]["authorization"], "not to the mirror")
    }

    func testAConnectionOfASegmentedDownloadAsksForItsPieceWhereTheFirstResponseCameFrom() async throws {
        let transport = MemoryTransport { request in
            request.url == "http://mirror.example/old" ? .init(302, [("Location", "/new")]) : .init(206)
        }
        let target = TransferTarget(
            url: "http://user:pw@h/a", headers: [RequestHeader(name: "Cookie", value: "c=1")], etag: "\"v1\"")
        _ = try await policy.send(
            target, range: 1_048_576..<2_097_152, from: "http://mirror.example/old", over: transport)
        XCTAssertEqual(transport.requests.map(\.url), ["http://mirror.example/old", "http://mirror.example/new"])
        for request in transport.requests {
            XCTAssertEqual(request["range"], "bytes=1048576-2097151", "both ends, as Range writes them")
            XCTAssertEqual(request["if-range"], "\"v1\"")
            XCTAssertNil(request["cookie"], "credentials only to the user's host")
            XCTAssertNil(request["authorization"])
        }
        let home = policy.request(for: target.url, of: target, range: 0..<1)
        XCTAssertEqual(home["range"], "bytes=0-0")
        XCTAssertEqual(home["cookie"], "c=1")
        XCTAssertEqual(home["authorization"], "Basic dXNlcjpwdw==")
    }

    func testRedirectsThatGoNowhereFailForGood() async throws {
        let cases: [(MemoryTransport.Reply, FailureReason)] = [
            (.init(302, [("Location", "/loop")]), .tooManyRedirects(limit: 3)),
            (.init(301, [("Location", "ftp://h/f")]), .redirectToScheme("ftp")),
            (.init(301, [("Location", "file:///etc/passwd")]), .redirectToScheme("file")),
            (.init(308), .redirectWithoutLocation(status: 308)),
        ]
        for (reply, reason) in cases {
            let transport = MemoryTransport { _ in reply }
            var target = TransferTarget(url: "http://h/loop")
            var emptied: [StartOverReason] = []
            let failure = await failure {
                _ = try await self.open(&target, partSize: nil, over: transport, emptied: &emptied)
            }
            XCTAssertEqual(failure?.reason, reason)
            XCTAssertEqual(failure?.isTransient, false)
        }
    }

    func testAWrongContentRangeStartsOverWithoutARange() async throws {
        let transport = MemoryTransport { request in
            request["range"] == nil
                ? .init(200, [("Content-Length", "2000")]) : .init(206, [("Content-Range", "bytes 0-999/2000")])
        }
        var target = TransferTarget(url: "http://h/f")
        var emptied: [StartOverReason] = []
        let bodyOpened = try await open(&target, partSize: 500, over: transport, emptied: &emptied)
        let body = try XCTUnwrap(body(bodyOpened))
        XCTAssertEqual(emptied, [.rangeMismatch], "the part is emptied before the new request")
        XCTAssertEqual(transport.requests.map { $0["range"] }, ["bytes=500-", nil])
        XCTAssertEqual(body.offset, 0)
        XCTAssertEqual(body.total, 2000)
        XCTAssertTrue(transport.handedOut[0].wasDropped)

        // A server that never answers a range right: the attempt fails, to be retried later.
        let stubborn = MemoryTransport { _ in .init(206, [("Content-Range", "bytes 7-9/10")]) }
        var again = TransferTarget(url: "http://h/f")
        let failure = await failure {
            _ = try await self.open(&again, partSize: 500, over: stubborn, emptied: &emptied)
        }
        XCTAssertEqual(failure?.reason, .startedOverTooOften(.rangeMismatch))
        XCTAssertEqual(failure?.isTransient, true)
        XCTAssertEqual(stubborn.requests.count, 3, "the first try and two starts over")
    }

    func testA416AtTheFullSizeMeansThePartIsComplete() async throws {
        let transport = MemoryTransport { _ in .init(416, [("Content-Range", "bytes */1000")]) }
        var target = TransferTarget(url: "http://h/f")
        var emptied: [StartOverReason] = []
        let opened = try await open(&target, partSize: 1000, over: transport, emptied: &emptied)
        guard case .complete(let total) = opened else { return XCTFail("not complete") }
        XCTAssertEqual(total, 1000)

        // A part larger than the remote file starts over.
        let smaller = MemoryTransport { request in
            request["range"] == nil
                ? .init(200, [("Content-Length", "900")]) : .init(416, [("Content-Range", "bytes */900")])
        }
        _ = try await open(&target, partSize: 1000, over: smaller, emptied: &emptied)
        XCTAssertEqual(emptied, [.partLargerThanRemote])
    }

    func testAWholeFileToARangeRequestTellsAChangedFileFromIgnoredRanges() async throws {
        let changed = MemoryTransport { _ in .init(200, [("Content-Length", "10"), ("ETag", "\"v2\"")]) }
        var target = TransferTarget(url: "http://h/f", etag: "\"v1\"")
        var emptied: [StartOverReason] = []
        let freshOpened = try await open(&target, partSize: 5, over: changed, emptied: &emptied)
        let fresh = try XCTUnwrap(body(freshOpened))
        XCTAssertEqual(fresh.startOver, .remoteChanged)
        XCTAssertEqual(fresh.offset, 0)
        XCTAssertEqual(target.etag, "\"v2\"", "the validators follow the body that will be written")

        let ignoring = MemoryTransport { _ in .init(200, [("Content-Length", "10"), ("ETag", "\"v2\"")]) }
        let wholeOpened = try await open(&target, partSize: 5, over: ignoring, emptied: &emptied)
        let whole = try XCTUnwrap(body(wholeOpened))
        XCTAssertEqual(whole.startOver, .rangesIgnored)
        XCTAssertEqual(whole.resumable, false)
        XCTAssertEqual(emptied, [], "a body from the first byte overwrites the part; nothing to empty first")
    }

    func testAnEncodedBodyIsABodyLikeAnyOtherAndResumesByRange() async throws {
        let transport = MemoryTransport { _ in .init(200, [("Content-Encoding", "gzip"), ("Content-Length", "10")]) }
        var target = TransferTarget(url: "http://h/f.tar.gz")
        var emptied: [StartOverReason] = []
        let bodyOpened = try await open(&target, partSize: nil, over: transport, emptied: &emptied)
        let whole = try XCTUnwrap(body(bodyOpened))
        XCTAssertEqual(whole.total, 10, "the bytes on the wire are the file's")
        XCTAssertEqual(transport.requests.first?["accept-encoding"], "identity")

        let ranged = MemoryTransport { _ in
            .init(206, [("Content-Encoding", "gzip"), ("Content-Range", "bytes 5-9/10"), ("Content-Length", "5")])
        }
        var resumed = TransferTarget(url: "http://h/f.tar.gz")
        let resumedOpened = try await open(&resumed, partSize: 5, over: ranged, emptied: &emptied)
        let resumedBody = try XCTUnwrap(body(resumedOpened))
        XCTAssertEqual(ranged.requests.map { $0["range"] }, ["bytes=5-"])
        XCTAssertEqual(resumedBody.offset, 5)
        XCTAssertEqual(resumedBody.resumable, true)
        XCTAssertEqual(emptied, [])
    }

    func testStatusesThatEndTheAttemptCarryTheirReasonAndRetryAfter() async throws {
        let cases: [(MemoryTransport.Reply, FailureReason, Bool, String?)] = [
            (.init(503, [("Retry-After", "7")]), .status(503), true, "7"),
            (
                .init(429, [("Retry-After", "Sun, 06 Nov 2044 08:49:37 GMT")]), .status(429), true,
                "Sun, 06 Nov 2044 08:49:37 GMT"
            ),
            (.init(410), .status(410), false, nil),
            (.init(404), .status(404), false, nil),
            (.init(204), .noContent, false, nil),
            (.init(416), .status(416), false, nil),
        ]
        for (reply, reason, transient, retryAfter) in cases {
            let transport = MemoryTransport { _ in reply }
            var target = TransferTarget(url: "http://h/f")
            var emptied: [StartOverReason] = []
            let failure = await failure {
                _ = try await self.open(&target, partSize: nil, over: transport, emptied: &emptied)
            }
            XCTAssertEqual(failure, TransferFailure(reason, isTransient: transient, retryAfter: retryAfter))
            XCTAssertTrue(transport.handedOut.allSatisfy(\.wasDropped), "a failed response's body is dropped")
        }
    }

    func testWhatTheTransportThrowsEndsTheAttempt() async throws {
        let refused = TransferFailure(.cannotConnect(host: "h", port: 80, why: "connection refused"))
        let transport = MemoryTransport { _ in throw refused }
        var target = TransferTarget(url: "http://h/f")
        var emptied: [StartOverReason] = []
        let failure = await failure {
            _ = try await self.open(&target, partSize: nil, over: transport, emptied: &emptied)
        }
        XCTAssertEqual(failure, refused)
    }
}
