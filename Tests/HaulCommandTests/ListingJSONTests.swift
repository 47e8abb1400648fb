import Foundation
import HaulStore
import XCTest

@testable import HaulCore
@testable import haul

/// `haul ls --json` is written by hand; scripts were written against what `JSONEncoder` printed,
/// so the two must agree byte for byte.
final class ListingJSONTests: XCTestCase {
    /// The listing as it was made with `JSONEncoder` (the reference).
    private struct ReferenceEntry: Encodable {
        let download: Download

        enum Keys: String, CodingKey {
            case id, url, path, state, reason, receivedBytes, totalBytes, fileName, directory, resumable, finalURL,
                notice, sha256, checksum, previousURLs, allowMetered, addedAt, finishedAt, retries, connections,
                segments, speedLimit, sources, proxy
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(download.id, forKey: .id)
            try c.encode(Redaction.url(download.url), forKey: .url)
            try c.encode(download.path, forKey: .path)
            try c.encode(download.state.kind, forKey: .state)
            try c.encode(download.reason, forKey: .reason)
            try c.encode(download.receivedBytes, forKey: .receivedBytes)
            try c.encode(download.totalBytes, forKey: .totalBytes)
            try c.encode(download.fileName, forKey: .fileName)
            try c.encode(download.directory, forKey: .directory)
            try c.encode(download.resumable, forKey: .resumable)
            try c.encode(download.finalURL.map(Redaction.url), forKey: .finalURL)
            try c.encode(download.notice.map { ReasonText.notice($0, now: ListingJSONTests.now) }, forKey: .notice)
            try c.encode(download.checksum?.algorithm == .sha256 ? download.checksum?.hex : nil, forKey: .sha256)
            try c.encode(download.checksum?.text, forKey: .checksum)
            try c.encode(download.previousURLs.map(Redaction.url), forKey: .previousURLs)
            try c.encode(download.allowMetered, forKey: .allowMetered)
            try c.encode(download.addedAt, forKey: .addedAt)
            try c.encode(download.finishedAt, forKey: .finishedAt)
            try c.encode(download.retries, forKey: .retries)
            try c.encode(download.activeConnections ?? 0, forKey: .connections)
            try c.encode(download.segments, forKey: .segments)
            try c.encode(download.speedLimit, forKey: .speedLimit)
            try c.encode(download.listedSources, forKey: .sources)
            try c.encode(nil as String?, forKey: .proxy)
        }
    }

    /// When the listings are made: a retry's notice counts down from it.
    static let now = Date(timeIntervalSince1970: 1_795_391_500)

    private func reference(_ downloads: [Download]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(downloads.map(ReferenceEntry.init)), as: UTF8.self) + "\n"
    }

    private func sample() -> [Download] {
        var plain = Download(
            id: DownloadID(rawValue: "00a1b2"), url: "http://example.com/a/b.iso", directory: "/tmp/x", queueOrder: 0,
            addedAt: Date(timeIntervalSince1970: 1_795_391_312.75))
        plain.fileName = "b.iso"
        plain.state = .finished
        plain.receivedBytes = 1 << 40
        plain.totalBytes = 1 << 40
        plain.resumable = true
        plain.finishedAt = Date(timeIntervalSince1970: 1_795_391_400)
        plain.speedLimit = 2 << 20

        var odd = Download(
            id: DownloadID(rawValue: "ffffff"), url: "https://alice:s3cret@host:8443/p?q=\"1\"&r=a\\b",
            directory: "/dl/with \"quotes\"/and\\slash/",
            checksum: try! Checksum(.sha256, hex: String(repeating: "ab", count: 32)),
            allowMetered: true,
            queueOrder: 7, addedAt: Date(timeIntervalSince1970: -1.5))
        odd.fileName =
            "tab\there, nl\nthere, cr\r, bs\u{8}, ff\u{C}, ctl\u{1}\u{1F}, del\u{7F}, é, 日本, 🎉, "
            + "sep\u{2028}"
        odd.state = .failed(.other("server said \"no\"\n(HTTP 403)"))
        odd.finalURL = "https://bob:pw@mirror/x"
        odd.notice = .text("renamed: a/b")
        odd.retries = 3
        odd.receivedBytes = 12
        odd.previousURLs = ["https://carol:pw@old/x?sig=1", "http://plain/y"]
        var mirror = DownloadSource(url: "http://bob:pw@mirror/\"x\"", origin: .link, priority: 2)
        mirror.bytes = 1 << 20
        mirror.problem = .sizeDiffers(size: 10, expected: 20)
        odd.request.sources = [mirror, DownloadSource(url: "https://m2/y", origin: .user)]

        var paused = Download(
            id: DownloadID(rawValue: "0000ff"), url: "http://h/", directory: "/", paused: true, queueOrder: 1,
            addedAt: Date(timeIntervalSince1970: 4_102_444_799.999))
        paused.state = .paused(by: .diskFull(shortfall: 5_000_000))
        paused.activeConnections = 3
        paused.segments = [Segment(start: 0, end: 1 << 21, received: 1 << 20), Segment(start: 1 << 21, end: 1 << 22)]
        return [plain, odd, paused]
    }

    func testTheListingIsWhatJSONEncoderWrote() throws {
        let downloads = sample()
        XCTAssertEqual(ListingJSON.text(downloads, now: Self.now), try reference(downloads))
        XCTAssertEqual(ListingJSON.text([downloads[1]], now: Self.now), try reference([downloads[1]]))
        XCTAssertEqual(ListingJSON.text([], now: Self.now), try reference([]))
    }

    func testChunksAddUpToTheWholeListing() throws {
        let downloads = Array(repeating: sample(), count: 20).joined().map { $0 }
        var chunks: [[UInt8]] = []
        ListingJSON.write(downloads, now: Self.now, chunkSize: 1000) { chunks.append(Array($0)) }
        XCTAssertGreaterThan(chunks.count, 5)
        XCTAssertTrue(chunks.dropLast().allSatisfy { $0.count >= 1000 && $0.count < 3000 }, "\(chunks.map(\.count))")
        XCTAssertEqual(String(decoding: chunks.joined(), as: UTF8.self), try reference(downloads))
    }

    /// Strings come out as `JSONEncoder` writes them (slashes unescaped): every control character,
    /// quotes, backslashes, non-ASCII, and small (inline) as well as large strings.
    func testStringsMatchJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        var samples = [
            "", "plain", "a/b", "say \"hi\"", "back\\slash", "日本語 👍🏽", "\u{7F}\u{80}",
            String(repeating: "long/path ", count: 40),
        ]
        samples += (0..<0x20).map { "x\(Character(Unicode.Scalar(UInt8($0))))y" }
        samples.append(String(repeating: "\t\"é", count: 30))
        for sample in samples {
            var ours: [UInt8] = []
            JSONBytes.quoted(sample, into: &ours)
            XCTAssertEqual(
                String(decoding: ours, as: UTF8.self), String(decoding: try encoder.encode(sample), as: UTF8.self),
                sample.debugDescription)
        }
    }

    /// Dates from 1900 to 2200, fractions included, as `JSONEncoder`'s `.iso8601` writes them.
    func testDatesMatchJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var rng = SystemRandomNumberGenerator()
        // Among them 2000-02-29 and 2100-03-01.
        var dates = [0, -0.25, 951_782_400, 951_868_799.5, 4_107_542_400].map(Date.init(timeIntervalSince1970:))
        for _ in 0..<2000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...7_258_118_400, using: &rng)))
        }
        for date in dates {
            var ours: [UInt8] = []
            JSONBytes.appendISO8601(date, to: &ours)
            XCTAssertEqual(
                String(decoding: ours, as: UTF8.self), String(decoding: try encoder.encode(date), as: UTF8.self),
                "\(date.timeIntervalSince1970)")
        }
    }
}
