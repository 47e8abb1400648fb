import Foundation
import XCTest

@testable import HaulCore

final class SchedulerTests: XCTestCase {
    func download(_ id: String, _ state: DownloadState.Kind, order: UInt64) -> Download {
        var d = Download(id: DownloadID(rawValue: id), url: "http://h/\(id)", directory: "/tmp", queueOrder: order)
        d.state = DownloadState.Parts(kind: state, failureReason: .status(404)).resolved
        return d
    }

    func testFirstInFirstOutWithinTheLimit() {
        let all = [
            download("c", .waiting, order: 3), download("a", .waiting, order: 1), download("b", .downloading, order: 0),
            download("d", .waiting, order: 2), download("e", .paused, order: 0),
        ]
        var waiting = WaitingQueue()
        for d in all where d.state == .waiting { waiting.insert(d.id, order: d.queueOrder) }
        func start(running: Int, limit: Int) -> [String] {
            var places = ConnectionPlaces(running: [String?](repeating: nil, count: running))
            let candidates = Scheduler.candidates(waiting: &waiting, places: places, limit: limit)
            return Scheduler.downloadsToStart(candidates, places: &places, limit: limit) { _ in nil }.map(\.rawValue)
        }
        XCTAssertEqual(start(running: 1, limit: 3), ["a", "d"])
        XCTAssertEqual(start(running: 2, limit: 3), ["a"])
        XCTAssertEqual(start(running: 0, limit: 10), ["a", "d", "c"])
        XCTAssertEqual(start(running: 3, limit: 3), [])
        XCTAssertEqual(waiting.count, 3, "asking does not dequeue")
    }

    /// The queue against a plain sort of what should be waiting, through random inserts, moves,
    /// removals and re-adds at the same position (which leave stale and duplicate heap entries).
    func testWaitingQueueAgreesWithASortAfterRandomChanges() {
        var rng = SystemRandomNumberGenerator()
        var queue = WaitingQueue()
        var truth: [DownloadID: UInt64] = [:]
        let ids = (0..<40).map { DownloadID(rawValue: String(format: "%06d", $0)) }
        for step in 0..<20_000 {
            let id = ids.randomElement(using: &rng)!
            switch Int.random(in: 0..<4, using: &rng) {
            case 0, 1:
                let order = UInt64.random(in: 0..<30, using: &rng) // ties happen and go by id
                queue.insert(id, order: order)
                truth[id] = order
            case 2:
                queue.remove(id)
                truth[id] = nil
            default:
                if let order = truth[id] { // out and back in at the same position
                    queue.remove(id)
                    queue.insert(id, order: order)
                }
            }
            if step % 7 == 0 {
                let k = Int.random(in: 1...12, using: &rng)
                let expected = truth.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(k).map(\.key)
                XCTAssertEqual(queue.first(k), expected, "step \(step)")
                XCTAssertEqual(queue.count, truth.count)
                // Among a few of them (looked up) or most of them (the queue walked in order).
                let among = Set(ids.filter { _ in Int.random(in: 0..<10, using: &rng) < (step % 2 == 0 ? 1 : 9) })
                let expectedAmong = truth.filter { among.contains($0.key) }
                    .sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(k).map(\.key)
                XCTAssertEqual(queue.first(k, among: among), expectedAmong, "step \(step), \(among.count) asked")
                XCTAssertEqual(queue.first(k), expected, "the walk put back what it took, step \(step)")
            }
        }
    }
}

final class TransitionTests: XCTestCase {
    func testCommandsAreIdempotent() {
        var d = Download(id: DownloadID(rawValue: "abc123"), url: "http://h/x", directory: "/tmp", queueOrder: 0)
        XCTAssertTrue(d.pause(.user))
        XCTAssertFalse(d.pause(.user))
        XCTAssertEqual(d.reason, "paused by user")
        d.queueOrder = 5
        XCTAssertTrue(d.resume())
        XCTAssertFalse(d.resume())
        XCTAssertEqual(d.queueOrder, 5, "a resumed download keeps its place in the list")
        XCTAssertTrue(d.cancel())
        XCTAssertFalse(d.cancel())
        XCTAssertEqual(d.state.kind, .failed)
        XCTAssertTrue(d.retry())
        XCTAssertEqual(d.state, .waiting)
        d.state = .finished
        XCTAssertFalse(d.cancel())
        XCTAssertFalse(d.pause(.user))
        XCTAssertEqual(d.state, .finished)
    }

    func testUserPauseOverridesPolicyPause() {
        var d = Download(id: DownloadID(rawValue: "abc123"), url: "http://h/x", directory: "/tmp", queueOrder: 0)
        XCTAssertTrue(d.pause(.metered))
        XCTAssertEqual(d.reason, "waiting for unmetered network")
        XCTAssertFalse(d.pause(.metered))
        XCTAssertTrue(d.pause(.user))
        XCTAssertEqual(d.pauseCause, .user)
    }

    func testDecodingToleratesMissingAndUnknownFields() throws {
        let json = #"{"id":"a1b2c3","url":"http://h/x","directory":"/tmp","someFutureField":42}"#
        let d = try JSONDecoder().decode(Download.self, from: Data(json.utf8))
        XCTAssertEqual(d.state, .waiting)
        XCTAssertEqual(d.receivedBytes, 0)
        XCTAssertNil(d.totalBytes)
    }
}

final class InputValidationTests: XCTestCase {
    func testURLs() throws {
        XCTAssertEqual(try DownloadURL.validate("  https://example.org/a.iso \n"), "https://example.org/a.iso")
        XCTAssertThrowsError(try DownloadURL.validate("ftp://example.org/a")) {
            XCTAssertTrue("\($0)".contains("unsupported scheme 'ftp'"))
        }
        XCTAssertThrowsError(try DownloadURL.validate("file:///etc/passwd"))
        XCTAssertThrowsError(try DownloadURL.validate("not a url"))
        XCTAssertThrowsError(try DownloadURL.validate("http://"))
        XCTAssertThrowsError(try DownloadURL.validate("http://host/\u{1B}[2J")) {
            XCTAssertFalse("\($0)".contains("\u{1B}"))
        }
        XCTAssertThrowsError(try DownloadURL.validate("http://host/\u{9B}2J"), "a C1 control inside")
        XCTAssertThrowsError(try DownloadURL.validate("http://host/a\tb"), "a tab inside")
        XCTAssertThrowsError(try DownloadURL.validate("http://host/a\u{7F}"), "DEL inside")
        XCTAssertEqual(
            try DownloadURL.validate("\u{A0}\thttp://h/x\r\n\u{2003}"), "http://h/x",
            "Unicode spaces around are trimmed")
        XCTAssertThrowsError(try DownloadURL.validate(" \n\t ")) { XCTAssertTrue("\($0)".contains("empty URL")) }
    }

    func testHeaders() throws {
        XCTAssertEqual(
            try RequestHeader.parse("Authorization:  Bearer x "),
            RequestHeader(name: "Authorization", value: "Bearer x"))
        XCTAssertThrowsError(try RequestHeader.parse("no colon"))
        XCTAssertThrowsError(try RequestHeader.parse("Bad Name: v"))
        XCTAssertThrowsError(try RequestHeader.parse("X: a\r\nInjected: 1"))
        XCTAssertThrowsError(try RequestHeader.parse("Range: bytes=0-"))
    }

    func testIDPrefixes() throws {
        let ids = ["3fa1b2", "3fb000", "a00000"].map(DownloadID.init(rawValue:))
        XCTAssertEqual(try DownloadSelector.resolve(["3fa", "A0"], among: ids).map(\.rawValue), ["3fa1b2", "a00000"])
        XCTAssertThrowsError(try DownloadSelector.resolve(["3f"], among: ids)) {
            XCTAssertTrue("\($0)".contains("ambiguous"))
        }
        XCTAssertThrowsError(try DownloadSelector.resolve(["zz"], among: ids)) {
            XCTAssertTrue("\($0)".contains("no download"))
        }
    }

    func testGeneratedIDsAreShortAndUnique() {
        var rng = SplitMix64()
        var seen = Set<DownloadID>()
        for _ in 0..<2000 {
            let id = DownloadID.generate(avoiding: seen, using: &rng)
            XCTAssertEqual(id.rawValue.count, 6)
            XCTAssertTrue(id.rawValue.allSatisfy(\.isHexDigit))
            XCTAssertTrue(seen.insert(id).inserted)
        }
    }

    /// Ids written digit by digit are the ids their text makes: same text, equal, same hash.
    func testGeneratedIDTextMatchesItsValue() {
        for value: UInt32 in [0, 0xa, 0xabc, 0x0f0f0f, 0x123456, 0xffffff] {
            let made = DownloadID(hexDigitsOf: value)
            let hex = String(value, radix: 16)
            let parsed = DownloadID(rawValue: String(repeating: "0", count: 6 - hex.count) + hex)
            XCTAssertEqual(made.rawValue, parsed.rawValue)
            XCTAssertEqual(made, parsed)
            XCTAssertEqual(made.hashValue, parsed.hashValue)
        }
    }

    /// The engine's generator is seeded from the system's: two runs of `haul add` start apart.
    func testSystemSeededGeneratorsDiffer() {
        var a = SplitMix64()
        var b = SplitMix64()
        XCTAssertNotEqual((0..<4).map { _ in a.next() }, (0..<4).map { _ in b.next() })
        var c = SplitMix64(seed: 42)
        var d = SplitMix64(seed: 42)
        XCTAssertEqual((0..<4).map { _ in c.next() }, (0..<4).map { _ in d.next() })
    }

    func testRedaction() {
        XCTAssertEqual(Redaction.url("https://me:secret@host/x"), "https://me:***@host/x")
        XCTAssertEqual(Redaction.url("https://host/x"), "https://host/x")
    }
}

final class FormattingTests: XCTestCase {
    func testHumanUnits() {
        XCTAssertEqual(Formatting.bytes(512), "512 B")
        XCTAssertEqual(Formatting.bytes(1536), "1.5 KiB")
        XCTAssertEqual(Formatting.bytes(1 << 30), "1.0 GiB")
        XCTAssertEqual(Formatting.bytes(300 << 20), "300 MiB")
        XCTAssertEqual(Formatting.duration(75), "1m15s")
        XCTAssertEqual(Formatting.duration(4000), "1h06m")
        XCTAssertEqual(Formatting.duration(nil), "--")
        XCTAssertEqual(Formatting.percent(received: 50, total: 200), 25)
        XCTAssertNil(Formatting.percent(received: 50, total: nil))
        XCTAssertEqual(Formatting.parseSize("500K"), 512_000)
    }

}

final class DownloadIDTests: XCTestCase {
    func testEqualityAndHashingFollowTheTextExactly() {
        let texts = [
            "00000a", "0000a", "a", "00a", "0a", "", "ABCDEF", "abcdef", "abcdefa", "abcdefab", "abcdefabc", "xyz",
            "00000A", "fffffff",
        ]
        for x in texts {
            for y in texts {
                let a = DownloadID(rawValue: x)
                let b = DownloadID(rawValue: y)
                XCTAssertEqual(a == b, x == y, "\(x) vs \(y)")
                if x == y { XCTAssertEqual(a.hashValue, b.hashValue) }
            }
        }
        XCTAssertEqual(Set(texts.map { DownloadID(rawValue: $0) }).count, Set(texts).count)
    }
}

/// Path arithmetic on text.
final class PathTextTests: XCTestCase {
    func testDirectoryOfAPath() {
        XCTAssertEqual(PathText.directory(of: "/a/b/state.json"), "/a/b")
        XCTAssertEqual(PathText.directory(of: "/state.json"), "")
        XCTAssertEqual(PathText.directory(of: "state.json"), "")
        XCTAssertEqual(PathText.directory(of: "/a//b"), "/a/")
    }

    func testADownloadsPathsJoinItsDirectoryAndNameWithOneSlash() {
        XCTAssertEqual(Download.path(of: "a.iso", in: "/srv/dl"), "/srv/dl/a.iso")
        XCTAssertEqual(Download.path(of: "a.iso", in: "/srv/dl/"), "/srv/dl/a.iso")
        XCTAssertEqual(Download.path(of: "a.iso", in: "/"), "/a.iso")
        XCTAssertEqual(Download.path(of: "a.iso", in: "/srv/dl", suffix: ".part"), "/srv/dl/a.iso.part")
        // Non-ASCII on both sides, long enough not to fit a small string.
        let directory = "/home/ünïcode/Téléchargements/日本語のフォルダ"
        let name = "Ein sehr langer Dateiname – mit Gedankenstrich.tar.gz"
        XCTAssertEqual(Download.path(of: name, in: directory, suffix: ".part"), directory + "/" + name + ".part")
        var download = Download(
            id: DownloadID(rawValue: "abcdef"), url: "http://h/x", directory: directory, queueOrder: 0, addedAt: Date())
        XCTAssertNil(download.path)
        XCTAssertNil(download.partPath)
        download.fileName = name
        XCTAssertEqual(download.path, directory + "/" + name)
        XCTAssertEqual(download.partPath, directory + "/" + name + ".part")
    }
}
