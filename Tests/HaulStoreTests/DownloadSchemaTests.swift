import Foundation
import XCTest

@testable import HaulCore
@testable import HaulStore

/// The schema lists every stored field of a download once, and every way a download is stored or
/// sent reads back every field.
final class DownloadSchemaTests: XCTestCase {
    /// A download with every field set to something other than what a new download starts with.
    static func everyField() -> Download {
        var d = Download(
            id: DownloadID(rawValue: "abc123"), url: "https://user:pw@example.org/a b/日本.iso?x=1",
            directory: "/dl/with \"quotes\"", requestedName: "wanted.iso",
            headers: [RequestHeader(name: "Cookie", value: "a=b"), RequestHeader(name: "X-Tab", value: "a\tb")],
            checksum: try! Checksum(.sha512, hex: String(repeating: "ab", count: 64)), allowMetered: true, paused: true,
            cookieFile: "/home/u/cookies.txt", queueOrder: 42,
            addedAt: Date(timeIntervalSince1970: 1_795_000_000.125))
        d.fileName = "日本.iso"
        d.previousURLs = ["https://example.org/old?sig=1", "https://example.org/older"]
        d.linkUnchecked = true
        d.state = .failed(.status(410))
        d.receivedBytes = 1_048_576
        d.totalBytes = 4_194_304
        d.etag = "\"v1\""
        d.lastModified = "Sun, 22 Nov 2026 06:00:00 GMT"
        d.resumable = false
        d.finalURL = "https://mirror.example.org/x.iso"
        d.retries = 3
        d.lastError = .stalled(seconds: 30)
        d.notice = .retrying(because: .status(503), at: Date(timeIntervalSince1970: 1_795_000_100), attempt: 3, of: 5)
        d.connections = 4
        d.activeConnections = 3
        d.speedLimit = 512 * 1024
        d.segments = [
            Segment(start: 0, end: 2_097_152, received: 1_048_576),
            Segment(start: 2_097_152, end: 4_194_304, received: 0),
        ]
        var mirror = DownloadSource(url: "https://mirror2.example.org/x.iso", origin: .link, priority: 1)
        mirror.bytes = 1_048_576
        mirror.problem = .failed(.status(503))
        d.request.sources = [mirror, DownloadSource(url: "http://m3.example.org/x.iso", origin: .metalink)]
        d.request.pieceHashes = PieceHashes(
            algorithm: .sha1, length: 2_097_152, hashes: [String(repeating: "ab", count: 20)])
        d.request.ignoresMirrorHeaders = true
        d.request.proxy = .through(ProxyAddress(kind: .http, host: "proxy.lan", port: 3128, user: "u", password: "p"))
        d.finishedAt = Date(timeIntervalSince1970: 1_795_000_200)
        d.request.selectedFiles = try! FileSelection("1,3-5")
        d.request.uploadLimit = 204_800
        d.request.seedGoal = SeedGoal(ratio: 2.5, minutes: 0)
        d.request.tries = 3
        var torrent = TorrentFacts(infoHash: String(repeating: "cd", count: 20), fileCount: 7, uploaded: 99)
        torrent.peers = 4
        torrent.seeds = 2
        torrent.uploadRate = 1000
        torrent.seeding = true
        d.torrent = torrent
        return d
    }

    func testEveryStoredPropertyHasOneLineInTheSchema() {
        // The state is stored in its kind, the cause of a pause with what it carries, and the
        // reason of a failure.
        let properties = Self.storedFields(Self.everyField()).map(\.label).flatMap {
            $0 == "state" ? ["state", "pauseCause", "diskShortfall", "budgetUse", "heldUntil", "failureReason"] : [$0]
        }
        // The stored order is the one that packs a download smallest, not the schema's.
        XCTAssertEqual(Download.schema.map(\.key).sorted(), properties.sorted(), "the schema lists every property")
        XCTAssertEqual(Set(Download.schema.map(\.key)).count, Download.schema.count, "no key twice")
        XCTAssertEqual(Download.schema.filter(\.isRequired).map(\.key), ["id", "url", "directory"])
    }

    func testEveryFieldDiffersFromANewDownloadInTheSample() {
        let sample = Self.storedFields(Self.everyField())
        let unread = Self.storedFields(Download.unread)
        XCTAssertEqual(sample.map(\.label), unread.map(\.label))
        for (a, b) in zip(sample, unread) {
            XCTAssertNotEqual(String(describing: a.value), String(describing: b.value), a.label)
        }
    }

    /// A download's stored properties in order, by the key each is stored under: its request's
    /// and those kept out of line among them (at their defaults when the download has none). A
    /// request's login, paused flag and torrent bytes are what it came in with and are not stored.
    static func storedFields(_ d: Download) -> [(label: String, value: Any)] {
        Mirror(reflecting: d).children.flatMap { child -> [(label: String, value: Any)] in
            switch child.label {
            case "extras":
                let extras = (child.value as? Download.ExtrasBox)?.value ?? Download.Extras()
                return Mirror(reflecting: extras).children.map { ($0.label ?? "", $0.value) }
            case "request":
                return Mirror(reflecting: child.value).children.flatMap { part -> [(label: String, value: Any)] in
                    guard part.label == "options" else { return [(part.label ?? "", part.value)] }
                    let options =
                        (part.value as? DownloadRequest.OptionsBox)?.value ?? DownloadRequest.Options()
                    return Mirror(reflecting: options).children.compactMap { option in
                        switch option.label {
                        case "login", "paused", "metainfo": return nil
                        case "proxy": return ("ownProxy", option.value)
                        case "selectedFiles": return ("selectFile", option.value)
                        case "seedGoal": return ("ownSeeding", option.value)
                        default: return (option.label ?? "", option.value)
                        }
                    }
                }
            case let label?:
                return [(Self.packedNumbers[label] ?? label, child.value)]
            default:
                return [("", child.value)]
            }
        }
    }

    /// The numbers a download stores without their optional wrapper, by the key each is stored under.
    static let packedNumbers = [
        "storedRetries": "retries", "storedTotal": "totalBytes", "storedFinish": "finishedAt",
        "storedConnections": "activeConnections",
    ]

    func testEveryFieldSurvivesEveryWayADownloadIsStoredOrSent() throws {
        let d = Self.everyField()
        // Codable, as Foundation's path reads the state file.
        let codable = try StateCoding.decoder().decode(Download.self, from: StateCoding.encoder().encode(d))
        XCTAssertEqual(codable, d)
        // The state file's one-pass writer and reader.
        let document = StateDocument(downloads: [d, Download.unread.with(id: "000001")])
        let bytes = try StateJSONWriter.encode(document)
        XCTAssertEqual(try StateJSONReader.decode(Data(bytes)).document.downloads, document.downloads)
        XCTAssertEqual(
            try StateCoding.decoder().decode(StateDocument.self, from: Data(bytes)).downloads, document.downloads)
        // The socket's list of downloads.
        XCTAssertEqual(try DownloadListJSON.decode(DownloadListJSON.encode([d])), [d])
        // An event carrying a download.
        let event = EngineEvent.updated(d)
        XCTAssertEqual(try JSONDecoder().decode(EngineEvent.self, from: JSONEncoder().encode(event)), event)
    }

    /// A pause's cause keeps what it carries (a full disk's shortfall, the budget used, the
    /// schedule's end) every way a download is stored or sent.
    func testEveryPauseCauseSurvivesWhole() throws {
        let causes: [PauseCause] = [
            .user, .metered, .diskFull(shortfall: nil), .diskFull(shortfall: 12_345), .budget(nil),
            .budget(BudgetUse(used: 2_000, budget: 1_000, period: .month)), .schedule(until: nil),
            .schedule(until: 1_439),
        ]
        for cause in causes {
            var d = Download.unread.with(id: "000002")
            d.state = .paused(by: cause)
            let codable = try StateCoding.decoder().decode(Download.self, from: StateCoding.encoder().encode(d))
            XCTAssertEqual(codable.state, d.state, "Codable: \(cause)")
            let bytes = try StateJSONWriter.encode(StateDocument(downloads: [d]))
            XCTAssertEqual(try StateJSONReader.decode(Data(bytes)).document.downloads.first?.state, d.state, "\(cause)")
            XCTAssertEqual(try DownloadListJSON.decode(DownloadListJSON.encode([d])).first?.state, d.state)
        }
    }

    /// An older haul kept a hold's words in the notice: they are read into the pause's cause, and
    /// the notice is left empty.
    func testAnOlderFilesHoldNoticeBecomesThePausesCause() throws {
        let notices = [
            (
                #"{"kind":"budgetUsed","received":5,"expected":4,"text":"day"}"#, "budget",
                PauseCause.budget(BudgetUse(used: 5, budget: 4, period: .day))
            ),
            (#"{"kind":"heldUntil","seconds":480}"#, "schedule", PauseCause.schedule(until: 480)),
        ]
        for (notice, kind, cause) in notices {
            let text =
                #"{"version":1,"settings":{"concurrency":3,"meteredMode":"off"},"#
                + #""downloads":[{"id":"a","url":"http://h/a","directory":"/d","state":"paused","#
                + #""pauseCause":"\#(kind)","notice":\#(notice)}]}"#
            for downloads in [
                try StateJSONReader.decode(Data(text.utf8)).document.downloads,
                try StateCoding.decoder().decode(StateDocument.self, from: Data(text.utf8)).downloads,
            ] {
                XCTAssertEqual(downloads.first?.state, .paused(by: cause))
                XCTAssertNil(downloads.first?.notice)
            }
        }
    }

    func testAFileWithOnlyTheIdentityReadsAsANewDownload() throws {
        let text =
            #"{"version":1,"settings":{"concurrency":3,"meteredMode":"off"},"#
            + #""downloads":[{"id":"a","url":"http://h/a","directory":"/d"}]}"#
        let json = Data(text.utf8)
        let fast = try StateJSONReader.decode(json).document.downloads
        let foundation = try StateCoding.decoder().decode(StateDocument.self, from: json).downloads
        XCTAssertEqual(fast, foundation)
        XCTAssertEqual(fast.first?.state, .waiting)
        XCTAssertEqual(fast.first?.headers, [])
        XCTAssertThrowsError(
            try StateJSONReader.decode(Data(#"{"version":1,"downloads":[{"id":"a","url":"http://h/a"}]}"#.utf8)),
            "the directory is required")
    }

    func testTheSHA256OfAnOlderHaulReadsAsAChecksum() throws {
        let hex = String(repeating: "ab", count: 32)
        let text =
            #"{"version":1,"settings":{"concurrency":3,"meteredMode":"off"},"#
            + #""downloads":[{"id":"a","url":"http://h/a","directory":"/d","sha256":"\#(hex)"}]}"#
        let json = Data(text.utf8)
        let fast = try StateJSONReader.decode(json).document.downloads
        let foundation = try StateCoding.decoder().decode(StateDocument.self, from: json).downloads
        XCTAssertEqual(fast.first?.checksum, try Checksum(.sha256, hex: hex))
        XCTAssertEqual(foundation.first?.checksum, try Checksum(.sha256, hex: hex))
    }
}

extension Download {
    fileprivate func with(id: String) -> Download {
        var d = self
        d.id = DownloadID(rawValue: id)
        d.url = "http://h/\(id)"
        d.directory = "/d"
        return d
    }
}
