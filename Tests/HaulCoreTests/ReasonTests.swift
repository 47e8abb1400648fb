import Foundation
import XCTest

@testable import HaulCore

/// Reasons are values that survive the state file and the socket, and each one reads as a
/// sentence a person understands.
final class ReasonTests: XCTestCase {
    static let everyFailure: [FailureReason] = [
        .status(404), .status(503), .noContent, .redirectWithoutLocation(status: 301), .invalidRedirect,
        .redirectToScheme("ftp"), .tooManyRedirects(limit: 20),
        .startedOverTooOften(.rangeMismatch), .completeWithoutFile, .closedEarly(received: 10, expected: 20),
        .bodyCutShort, .serverClosedConnection, .stalled(seconds: 30),
        .cannotConnect(host: "example.org", port: 443, why: "connection refused"),
        .connectionFailed("connection reset by the server"), .malformedResponse("invalid header token"),
        .requestHeaderRefused, .tls("the server's TLS certificate is for another host name"),
        .diskFull(shortfall: 2_000_000), .diskFull(shortfall: nil),
        .checksumMismatch(algorithm: "sha256", expected: "ab", actual: "cd"), .file("permission denied"),
        .cancelled, .other("something else"),
    ]

    func testEveryReasonSurvivesJSON() throws {
        for reason in Self.everyFailure {
            let data = try JSONEncoder().encode(reason)
            XCTAssertEqual(try JSONDecoder().decode(FailureReason.self, from: data), reason)
            XCTAssertTrue(String(decoding: data, as: UTF8.self).hasPrefix(#"{"#), "stored as an object")
        }
        let notices: [Notice] = [
            .retrying(because: .status(503), at: Date(timeIntervalSince1970: 1_800_000_000), attempt: 2, of: 5),
            .startedOver(.remoteChanged), .text("old"), .waitingForNetwork(because: .stalled(seconds: 30)),
        ]
        for notice in notices {
            XCTAssertEqual(try JSONDecoder().decode(Notice.self, from: try JSONEncoder().encode(notice)), notice)
        }
    }

    func testWhatAnOlderHaulStoredAsTextReadsBack() throws {
        let decoder = JSONDecoder()
        XCTAssertEqual(
            try decoder.decode(FailureReason.self, from: Data(#""link expired or removed (HTTP 410)""#.utf8)),
            .other("link expired or removed (HTTP 410)"))
        XCTAssertEqual(try decoder.decode(FailureReason.self, from: Data(#""cancelled by user""#.utf8)), .cancelled)
        XCTAssertEqual(
            try decoder.decode(Notice.self, from: Data(#""server ignores ranges; started over""#.utf8)),
            .text("server ignores ranges; started over"))
        // A kind a newer haul knows and this one does not still reads, as words.
        XCTAssertEqual(
            try decoder.decode(FailureReason.self, from: Data(#"{"kind":"quotaExceeded","text":"over quota"}"#.utf8)),
            .other("over quota"))
    }

    func testEveryReasonIsASentence() {
        for reason in Self.everyFailure {
            let text = ReasonText.failure(reason)
            XCTAssertGreaterThan(text.split(separator: " ").count, 1, "more than a bare word: \(text)")
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 }, text)
        }
        XCTAssertEqual(ReasonText.failure(.status(410)), "link expired or removed (HTTP 410)")
        XCTAssertEqual(ReasonText.failure(.diskFull(shortfall: 2 << 20)), "disk full — needs 2.0 MiB more")
        XCTAssertEqual(
            ReasonText.failure(.cannotConnect(host: "h\u{1B}[2J", port: 80, why: "connection refused")),
            "cannot connect to h:80: connection refused", "server-chosen text is cleaned")
    }

    /// Counted in tries, as `-t` counts them: the fifth retry of five is the sixth try of six.
    func testARetryCountsDown() {
        let at = Date(timeIntervalSince1970: 1_000)
        let notice = Notice.retrying(because: .status(503), at: at, attempt: 5, of: 5)
        XCTAssertEqual(
            ReasonText.notice(notice, now: at.addingTimeInterval(-11)),
            "server error (HTTP 503); retrying in 11s (try 6 of 6)")
        XCTAssertEqual(
            ReasonText.notice(notice, now: at.addingTimeInterval(-3)),
            "server error (HTTP 503); retrying in 3s (try 6 of 6)")
        XCTAssertEqual(ReasonText.notice(notice, now: at), "server error (HTTP 503); retrying now (try 6 of 6)")
        var d = Download(id: DownloadID(rawValue: "aaaaaa"), url: "http://h/a", directory: "/dl", queueOrder: 0)
        d.state = .downloading
        d.notice = notice
        XCTAssertTrue(d.isWaitingToRetry(at: at.addingTimeInterval(-5)))
        XCTAssertFalse(d.isWaitingToRetry(at: at.addingTimeInterval(5)))
    }
}
