import Foundation
import HaulTestSupport
import XCTest

@testable import HaulCore
@testable import HaulStore

/// The one-pass decoder must read every file haul writes exactly as Foundation does.
/// Random documents with every field and awkward text, as haul could write them.
enum RandomDocuments {
    static func make(_ rng: inout SeededGenerator, count: Int) -> StateDocument {
        let texts = [
            "plain.iso", "日本語の資料.pdf", "quote\"back\\slash", "tab\tnew\nline", "emoji 🎉 e\u{301}",
            "/slashes/",
            "\u{1}\u{1F}ctl", "",
        ]
        let reasons: [FailureReason] = [
            .status(503), .stalled(seconds: 30), .diskFull(shortfall: nil), .diskFull(shortfall: 12),
            .cannotConnect(host: "h", port: 80, why: "connection refused"), .cancelled, .other(texts[3]),
            .checksumMismatch(algorithm: "sha256", expected: "ab", actual: "cd"), .startedOverTooOften(.rangesIgnored),
        ]
        let notices: [Notice] = [
            .startedOver(.remoteChanged), .text(texts[1]),
            .retrying(because: .status(429), at: Date(timeIntervalSince1970: 1_800_000_000), attempt: 1, of: 5),
        ]
        var downloads: [Download] = []
        for i in 0..<count {
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)),
                url: "https://h/\(texts.randomElement(using: &rng)!)",
                directory: "/dl/" + texts.randomElement(using: &rng)!,
                queueOrder: UInt64.random(in: 0...1_000_000, using: &rng),
                addedAt: Date(timeIntervalSince1970: Double.random(in: 0...2_000_000_000, using: &rng))
            )
            if Bool.random(using: &rng) { d.fileName = texts.randomElement(using: &rng)! }
            if Bool.random(using: &rng) { d.requestedName = texts.randomElement(using: &rng)! }
            d.state = [
                .waiting, .downloading,
                .paused(
                    by: [
                        .user, .metered, .diskFull(shortfall: nil),
                        .diskFull(shortfall: Int64.random(in: 0...(1 << 40), using: &rng)), .budget(nil),
                        .budget(BudgetUse(used: 5, budget: 4, period: .month)), .schedule(until: nil),
                        .schedule(until: Int.random(in: 0..<1440, using: &rng)),
                    ].randomElement(using: &rng)!),
                .finished,
                .failed(.other(texts.randomElement(using: &rng)!)),
            ].randomElement(using: &rng)!
            d.receivedBytes = Int64.random(in: 0...Int64.max / 2, using: &rng)
            if Bool.random(using: &rng) { d.totalBytes = Int64.random(in: 0...(1 << 50), using: &rng) }
            if Bool.random(using: &rng) {
                d.headers = [RequestHeader(name: "Authorization", value: "Bearer " + texts.randomElement(using: &rng)!)]
            }
            if Bool.random(using: &rng) { d.checksum = try! Checksum(.sha256, hex: String(repeating: "ab", count: 32)) }
            if Bool.random(using: &rng) { d.previousURLs = ["https://old/" + texts.randomElement(using: &rng)!] }
            if Bool.random(using: &rng) { d.linkUnchecked = true }
            if Bool.random(using: &rng) { d.cookieFile = "/home/" + texts.randomElement(using: &rng)! }
            d.allowMetered = Bool.random(using: &rng)
            if Bool.random(using: &rng) { d.etag = "\"" + texts.randomElement(using: &rng)! + "\"" }
            if Bool.random(using: &rng) { d.lastModified = "Sun, 22 Nov 2026 06:00:00 GMT" }
            if Bool.random(using: &rng) { d.resumable = Bool.random(using: &rng) }
            if Bool.random(using: &rng) {
                d.finalURL = Bool.random(using: &rng) ? d.url : "https://mirror/" + texts.randomElement(using: &rng)!
            }
            d.retries = Int.random(in: 0...5, using: &rng)
            if Bool.random(using: &rng) { d.lastError = reasons.randomElement(using: &rng)! }
            if Bool.random(using: &rng) { d.notice = notices.randomElement(using: &rng)! }
            if Bool.random(using: &rng) {
                d.finishedAt = Date(timeIntervalSince1970: Double.random(in: 0...2_000_000_000, using: &rng))
            }
            downloads.append(d)
        }
        var away = AwayReport(since: Date(timeIntervalSince1970: 1_700_000_000.25))
        for d in downloads.prefix(5) { away.record(d, at: Date(timeIntervalSince1970: 1_700_000_001)) }
        return StateDocument(
            settings: StateDocument.Settings(
                concurrency: Int.random(in: 1...16, using: &rng), meteredMode: .auto, meteredLimit: 500_000),
            downloads: downloads, away: Bool.random(using: &rng) ? away : nil
        )
    }
}

final class StateJSONReaderTests: XCTestCase {

    func testEveryWrittenDocumentReadsBackAsFoundationReadsIt() throws {
        var rng = SeededGenerator(seed: 7)
        for round in 0..<200 {
            let document = RandomDocuments.make(&rng, count: round % 20)
            let data = try StateCoding.encoder().encode(document)
            let fast = try StateJSONReader.decode(data)
            let foundation = try StateCoding.decoder().decode(StateDocument.self, from: data)
            XCTAssertEqual(fast.document, foundation, "round \(round)")
            XCTAssertEqual(fast.document, document, "round \(round)")
            XCTAssertEqual(fast.unknownFields, [])
        }
    }

    func testUnknownFieldsAreNamedAndEscapesAndNullsRead() throws {
        let json = #"""
            { "version" : 1, "extra": [1, {"a": null}], "settings": {"concurrency": 2, "future": true},
              "downloads": [ {"id": "00000a", "url": "http://h/\u00e9\ud83c\udf89\/x", "directory": "/dl",
                              "fileName": null,
                              "state": "paused", "pauseCause": "metered", "mystery": {"deep": [true, false, -1.5e3]},
                              "addedAt": 1700000000.5, "receivedBytes": -0, "headers": []} ] }
            """#
        let result = try StateJSONReader.decode(Data(json.utf8))
        XCTAssertEqual(result.unknownFields, ["downloads[].mystery", "extra", "settings.future"])
        let d = try XCTUnwrap(result.document.downloads.first)
        XCTAssertEqual(d.url, "http://h/é🎉/x")
        XCTAssertNil(d.fileName)
        XCTAssertEqual(d.pauseCause, .metered)
        XCTAssertEqual(d.addedAt, Date(timeIntervalSince1970: 1_700_000_000.5))
        XCTAssertEqual(result.document.settings.concurrency, 2)
    }

    func testWhatItCannotReadIsLeftToFoundation() {
        let cases = [
            // An ISO 8601 date.
            #"{"version":1,"downloads":[{"id":"a","url":"u","directory":"d","addedAt":"2026-11-22T06:00:00Z"}]}"#,
            #"{"version":1,"downloads":[{"id":"a","url":"u"}]}"#, // no directory
            #"{"version":1,"downloads":[{"id":"a","url":"u","directory":"d","state":"sleeping"}]}"#,
            #"{"version":1,"downloads":[{"id":"a","url":"u","directory":"d","receivedBytes":"12"}]}"#,
            #"{"version":1,"downloads":[{"id":"a","url":"u","directory":"d"}]} trailing"#,
            #"{"version":1,"downloads":[{"id":"a","url":"u\#u{1}","directory":"d"}]}"#, // raw control byte
            #"{"version":1,"downloads":[{"id":"a","url":"u","directory":"d""#, // truncated
        ]
        for json in cases {
            XCTAssertThrowsError(try StateJSONReader.decode(Data(json.utf8)), json)
        }
    }
}

final class StateJSONWriterTests: XCTestCase {
    /// A string equal to the one before it is shared, not decoded again; one that only starts
    /// like it, or whose bytes match it but are escapes, must not be taken for it.
    func testRepeatedDirectoriesAndFinalURLsReadBackExactly() throws {
        let directories = [
            "/a", "/a", "/a\"b", "/a\"b", "/a\\", "/a\\", "/a\u{1}", "/a\u{1}", "/a", "/ab", "", "", "/a",
        ]
        var document = StateDocument()
        for (i, directory) in directories.enumerated() {
            var d = Download(
                id: DownloadID(rawValue: "id\(i)"), url: "http://h/\(directory)", directory: directory,
                queueOrder: UInt64(i), addedAt: Date(timeIntervalSince1970: 1_795_611_683.9097154))
            d.finalURL = i % 2 == 0 ? d.url : d.url + "x"
            document.downloads.append(d)
        }
        for data in [try StateCoding.encoder().encode(document), Data(try StateJSONWriter.encode(document))] {
            XCTAssertEqual(try StateJSONReader.decode(data).document, document)
            XCTAssertEqual(
                try DownloadListJSON.decode(Array(try StateCoding.encoder().encode(document.downloads))),
                Array(document.downloads))
        }
    }

    func testWhatItWritesFoundationAndTheFastDecoderReadBackUnchanged() throws {
        var rng = SeededGenerator(seed: 11)
        for round in 0..<200 {
            let document = RandomDocuments.make(&rng, count: round % 20)
            let data = Data(try StateJSONWriter.encode(document))
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: data), "valid JSON, round \(round)")
            XCTAssertEqual(try StateCoding.decoder().decode(StateDocument.self, from: data), document, "round \(round)")
            XCTAssertEqual(try StateJSONReader.decode(data).document, document, "round \(round)")
        }
    }

    /// Numbers and whole-second dates are written by hand; the extremes must read back unchanged.
    func testExtremeNumbersAndWholeSecondDatesReadBack() throws {
        var a = Download(
            id: DownloadID(rawValue: "aaaaaa"), url: "https://h/a", directory: "/d", queueOrder: UInt64(Int64.max),
            addedAt: Date(timeIntervalSince1970: 1_763_800_000))
        a.receivedBytes = -Int64.max
        a.totalBytes = Int64.max
        a.retries = 0
        a.state = .paused(by: .diskFull(shortfall: -1))
        a.finishedAt = Date(timeIntervalSince1970: -86_400)
        var b = Download(
            id: DownloadID(rawValue: "bbbbbb"), url: "https://h/b", directory: "/d", queueOrder: 0,
            addedAt: Date(timeIntervalSince1970: 0))
        b.receivedBytes = 9
        b.totalBytes = 10
        b.finishedAt = Date(timeIntervalSince1970: 1_763_800_000.25)
        let document = StateDocument(downloads: [a, b])
        let data = Data(try StateJSONWriter.encode(document))
        XCTAssertEqual(try StateCoding.decoder().decode(StateDocument.self, from: data), document)
        XCTAssertEqual(try StateJSONReader.decode(data).document, document)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains(#""receivedBytes":-9223372036854775807"#), text)
        XCTAssertTrue(text.contains(#""addedAt":1763800000,"#), text)
        XCTAssertTrue(text.contains(#""finishedAt":-86400}"#), text)
    }

    /// A save streams the file in chunks; the chunks must add up to exactly the whole.
    func testChunkedOutputIsTheSameBytes() throws {
        var rng = SeededGenerator(seed: 12)
        for round in 0..<50 {
            let document = RandomDocuments.make(&rng, count: round % 20)
            let whole = try StateJSONWriter.encode(document)
            var chunks: [[UInt8]] = []
            try StateJSONWriter.encode(document, chunkSize: 1 + round * 7) { chunks.append(Array($0)) }
            XCTAssertEqual(chunks.flatMap { $0 }, whole, "round \(round)")
            XCTAssertGreaterThan(chunks.count, document.downloads.isEmpty ? 0 : 1, "round \(round)")
        }
    }
}

/// The downloads a daemon sends a client (`WireSnapshot`) go through `DownloadListJSON`.
final class DownloadListJSONTests: XCTestCase {
    func testAListReadsBackUnchangedFromOneLine() throws {
        var rng = SeededGenerator(seed: 23)
        for round in 0..<100 {
            let downloads = Array(RandomDocuments.make(&rng, count: round % 20).downloads)
            let bytes = DownloadListJSON.encode(downloads)
            XCTAssertFalse(bytes.contains(0x0A), "one line (the texts hold newlines), round \(round)")
            XCTAssertEqual(try DownloadListJSON.decode(bytes), downloads, "round \(round)")
            XCTAssertEqual(
                try StateCoding.decoder().decode([Download].self, from: Data(bytes)), downloads,
                "Foundation reads it too, round \(round)")
        }
    }

    /// What the one-pass reader does not take (a list Foundation wrote with ISO 8601 dates, or
    /// whitespace after it) still reads; damage is an error, not a shorter list.
    func testOtherFormsGoThroughFoundationAndDamageThrows() throws {
        var rng = SeededGenerator(seed: 5)
        let downloads = RandomDocuments.make(&rng, count: 6).downloads.map { d -> Download in
            var d = d
            d.addedAt = Date(timeIntervalSince1970: d.addedAt.timeIntervalSince1970.rounded(.down))
            d.finishedAt = d.finishedAt.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
            return d
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        XCTAssertEqual(try DownloadListJSON.decode(Array(try encoder.encode(downloads))), downloads)
        XCTAssertEqual(try DownloadListJSON.decode(DownloadListJSON.encode(downloads) + Array(" \n".utf8)), downloads)
        let whole = DownloadListJSON.encode(downloads)
        XCTAssertThrowsError(try DownloadListJSON.decode(Array(whole.prefix(whole.count / 2))))
        XCTAssertEqual(try DownloadListJSON.decode(Array("[]".utf8)), [])
    }
}
