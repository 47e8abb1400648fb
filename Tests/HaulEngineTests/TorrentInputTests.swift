import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// A torrent's bytes and a magnet link are hostile input: libtorrent reads them, and whatever
/// they hold, haul answers with a sentence or a torrent, never a crash.
final class TorrentInputTests: XCTestCase {
    /// A small valid single-file torrent, bencoded here (no tool needed).
    static func torrent(name: String = "file.bin", length: Int = 40_000, pieceLength: Int = 16_384) -> [UInt8] {
        let pieces = (length + pieceLength - 1) / pieceLength
        let info = Bencode.dictionary([
            "length": .integer(Int64(length)), "name": .bytes(Array(name.utf8)),
            "piece length": .integer(Int64(pieceLength)),
            "pieces": .bytes([UInt8](repeating: 7, count: 20 * pieces)),
        ])
        return Bencode.dictionary(["announce": .bytes(Array("http://127.0.0.1:1/announce".utf8)), "info": info])
            .encoded
    }

    func testAValidTorrentIsReadWithItsHashNameAndSize() throws {
        let meta = try TorrentMetadata(torrent: Self.torrent())
        XCTAssertEqual(meta.name, "file.bin")
        XCTAssertEqual(meta.totalSize, 40_000)
        XCTAssertEqual(meta.infoHash.count, 40)
        XCTAssertTrue(meta.magnet.hasPrefix("magnet:?xt=urn:btih:\(meta.infoHash)&dn=file.bin&tr=http%3A%2F%2F"))
        // The magnet it is kept as names the same torrent.
        XCTAssertEqual(try TorrentMetadata(magnet: meta.magnet).infoHash, meta.infoHash)
    }

    func testTenThousandFuzzedTorrentsAreEachReadOrRefusedInASentence() {
        let valid = Self.torrent()
        var rng = SystemRandomNumberGenerator()
        var refused = 0
        for round in 0..<10_000 {
            var bytes = valid
            switch round % 3 {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            case 1:
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            default:
                bytes.insert(
                    contentsOf: Array("i99999999999999999999e4:infod".utf8),
                    at: Int.random(in: 0..<bytes.count, using: &rng))
            }
            do {
                _ = try TorrentMetadata(torrent: bytes)
            } catch {
                refused += 1
                XCTAssertTrue(error.message.hasPrefix("this is not a torrent file"), error.message)
                XCTAssertFalse(error.message.contains("\u{1B}"))
            }
        }
        XCTAssertGreaterThan(refused, 5_000)
    }

    func testMagnetLinksAreCheckedBeforeLibtorrentSeesThem() throws {
        let hex = String(repeating: "ab", count: 20)
        XCTAssertEqual(try MagnetLink.validate("magnet:?xt=urn:btih:\(hex)"), "magnet:?xt=urn:btih:\(hex)")
        // Base32 v1, v2 and hybrid.
        XCTAssertNoThrow(try MagnetLink.validate("magnet:?xt=urn:btih:" + String(repeating: "a", count: 32)))
        let v2 = "urn:btmh:1220" + String(repeating: "cd", count: 32)
        XCTAssertNoThrow(try TorrentMetadata(magnet: try MagnetLink.validate("magnet:?xt=\(v2)")))
        let hybrid = try TorrentMetadata(magnet: "magnet:?xt=urn:btih:\(hex)&xt=\(v2)")
        XCTAssertEqual(hybrid.infoHashV1, hex)
        XCTAssertEqual(hybrid.infoHashV2, String(repeating: "cd", count: 32))
        for bad in [
            "magnet:?dn=x", "magnet:?xt=urn:btih:123", "magnet:?xt=urn:btmh:1220ab", "magnet:?xt=urn:btih:\(hex)\u{1B}",
        ] {
            XCTAssertThrowsError(try MagnetLink.validate(bad)) { error in
                XCTAssertFalse((error as? InputError)?.message.contains("\u{1B}") ?? true)
            }
        }
        for magnet in ["magnet:?xt=x", "MAGNET:?xt=x", "Magnet:", "magnet:"] {
            XCTAssertTrue(MagnetLink.isMagnet(magnet))
        }
        for other in ["", "magnet", "magnets:?", "http://h/magnet:", " magnet:?", "mägnet:?"] {
            XCTAssertFalse(MagnetLink.isMagnet(other), other)
        }
    }

    /// A torrent nothing can find a peer for says so rather than waiting without a word.
    func testATorrentWithNoWayToPeersSaysSo() {
        var off = TorrentSettings()
        off.dht = false
        XCTAssertNotNil(TorrentTransfer.nowhereToFindPeers(trackers: [], webSeeds: [], settings: off))
        XCTAssertNil(TorrentTransfer.nowhereToFindPeers(trackers: ["http://t/announce"], webSeeds: [], settings: off))
        XCTAssertNil(TorrentTransfer.nowhereToFindPeers(trackers: [], webSeeds: ["http://s/f"], settings: off))
        XCTAssertNil(TorrentTransfer.nowhereToFindPeers(trackers: [], webSeeds: [], settings: TorrentSettings()))
        var discovery = off
        discovery.lsd = true
        XCTAssertNil(TorrentTransfer.nowhereToFindPeers(trackers: [], webSeeds: [], settings: discovery))
    }

    func testTheSelectionSyntaxIsAria2s() throws {
        XCTAssertEqual(try FileSelection("1,3-5").description, "1,3-5")
        XCTAssertEqual(try FileSelection("5,4,1-2,3").description, "1-5")
        XCTAssertEqual(try FileSelection("2").priorities(count: 4), [0, 4, 0, 0])
        XCTAssertEqual(try FileSelection("2").toggled(3).description, "2-3")
        XCTAssertEqual(try FileSelection("1-5").toggled(3).description, "1-2,4-5")
        XCTAssertEqual(try FileSelection("1-5").toggled(1).description, "2-5")
        XCTAssertEqual(try FileSelection("1-5").toggled(5).description, "1-4")
        XCTAssertEqual(try FileSelection("1-2,4-5").toggled(3).description, "1-5")
        XCTAssertEqual(try FileSelection("3").toggled(3).ranges, [])
        XCTAssertEqual(try FileSelection("3").toggled(1).description, "1,3")
        // Every toggle of a large selection is its own undo.
        let all = FileSelection(ranges: [1...100_000])
        XCTAssertEqual(all.toggled(100_000).toggled(100_000), all)
        XCTAssertEqual(all.toggled(50_000).description, "1-49999,50001-100000")
        for bad in ["", "0", "3-1", "a", "1,,2", "-2"] {
            XCTAssertThrowsError(try FileSelection(bad), bad)
        }
    }

    func testATrackersTroubleIsToldInItsOwnWordsOrAsWhyItCouldNotBeAsked() {
        let url = "http://tracker.example/announce"
        XCTAssertEqual(
            TorrentRun.trackerTrouble(url: url, message: "torrent not registered", refused: true),
            "tracker http://tracker.example/announce refused: torrent not registered")
        XCTAssertEqual(
            TorrentRun.trackerTrouble(url: url, message: "Connection refused", refused: false),
            "tracker http://tracker.example/announce could not be asked: Connection refused")
        XCTAssertFalse(
            TorrentRun.trackerTrouble(url: url, message: "\u{1B}[2Jgone", refused: true).contains("\u{1B}"),
            "a tracker's words never reach the terminal raw")
    }

    func testARestartForgetsTheSwarmAndTheSeedingOfTheRunThatEnded() {
        var d = Download(
            id: DownloadID(rawValue: "aaaaaa"), url: "magnet:?xt=urn:btih:" + String(repeating: "ab", count: 20),
            directory: "/tmp", queueOrder: 1)
        _ = d.finish(fileName: "x.bin", size: 10, at: Date(timeIntervalSince1970: 0))
        var facts = TorrentFacts(infoHash: String(repeating: "ab", count: 20), fileCount: 1, uploaded: 7)
        facts.peers = 3
        facts.uploadRate = 100
        facts.seeding = true
        d.torrent = facts
        XCTAssertTrue(Engine.reconcileWithDisk(&d, now: Date(timeIntervalSince1970: 1)))
        XCTAssertEqual(d.torrent, TorrentFacts(infoHash: facts.infoHash, fileCount: 1, uploaded: 7))
        XCTAssertEqual(d.state, .finished)
        XCTAssertFalse(Engine.reconcileWithDisk(&d, now: Date(timeIntervalSince1970: 2)))
    }

    func testAFinishedTorrentOwesSeedingUntilItsRatioOrAnEndForGood() throws {
        let settings = TorrentSettings()
        var facts = TorrentFacts(infoHash: String(repeating: "ab", count: 20), fileCount: 1, uploaded: 400)
        XCTAssertTrue(facts.owesSeeding(size: 1000, under: settings))
        XCTAssertFalse(facts.owesSeeding(size: nil, under: settings), "no size, no ratio to reach")
        var none = settings
        none.seedRatio = 0
        XCTAssertFalse(facts.owesSeeding(size: 1000, under: none))
        facts.uploaded = 1000
        XCTAssertFalse(facts.owesSeeding(size: 1000, under: settings), "the ratio is reached")
        facts.uploaded = 400
        facts.seedingEnded = true
        XCTAssertFalse(facts.owesSeeding(size: 1000, under: settings), "paused by the user, or its time was up")
        // The end for good outlives a restart and the state file; a state from before it reads as not ended.
        XCTAssertTrue(facts.atRest.seedingEnded)
        let stored = try JSONEncoder().encode(facts)
        XCTAssertEqual(try JSONDecoder().decode(TorrentFacts.self, from: stored), facts)
        let older = #"{"infoHash":"\#(facts.infoHash)","fileCount":1,"uploaded":400,"seeding":false}"#
        let read = try JSONDecoder().decode(TorrentFacts.self, from: Data(older.utf8))
        XCTAssertFalse(read.seedingEnded)
        XCTAssertFalse(String(decoding: try JSONEncoder().encode(read), as: UTF8.self).contains("seedingEnded"))
    }

    func testAFinishedTorrentResumedByHandSeedsUntilPausedPastItsRatioAndTime() throws {
        var settings = TorrentSettings()
        settings.seedMinutes = 10
        let ended = TorrentFacts(
            infoHash: String(repeating: "cd", count: 20), fileCount: 1, uploaded: 5000, seedingEnded: true)
        XCTAssertFalse(ended.owesSeeding(size: 1000, under: settings))
        XCTAssertTrue(ended.seedingIsDone(size: 1000, seconds: 0, under: settings), "ratio 5 is past 1")
        let resumed = ended.resumedByHand
        XCTAssertTrue(resumed.owesSeeding(size: 1000, under: settings))
        XCTAssertFalse(resumed.seedingIsDone(size: 1000, seconds: 3600, under: settings), "past the ratio and time")
        var none = settings
        none.seedRatio = 0
        XCTAssertTrue(resumed.owesSeeding(size: 1000, under: none), "even where finished torrents do not seed")
        // It outlives a restart; a pause ends it, and with it the seeding for good.
        XCTAssertTrue(resumed.atRest.seedsUntilPaused)
        XCTAssertEqual(try JSONDecoder().decode(TorrentFacts.self, from: try JSONEncoder().encode(resumed)), resumed)
        let paused = resumed.pausedByHand
        XCTAssertFalse(paused.owesSeeding(size: 1000, under: settings))
        XCTAssertTrue(paused.seedingIsDone(size: 1000, seconds: 0, under: settings))
        XCTAssertFalse(String(decoding: try JSONEncoder().encode(paused), as: UTF8.self).contains("seedsUntilPaused"))
    }

    func testATorrentThatCannotSeedSaysWhyAndKeepsItInTheState() throws {
        let notice = Notice.cannotSeed(why: "its files are no longer at /data/share\u{1b}[2J.bin")
        XCTAssertEqual(
            ReasonText.notice(notice, now: nil), "cannot seed: its files are no longer at /data/share.bin",
            "a name from the swarm reaches the terminal without its escapes")
        XCTAssertFalse(notice.isHold)
        XCTAssertEqual(try JSONDecoder().decode(Notice.self, from: try JSONEncoder().encode(notice)), notice)
    }

    func testSeedingStopsAtTheRatioOrTheTimeWhicheverFirst() {
        var settings = TorrentSettings()
        XCTAssertFalse(settings.seedingIsDone(uploaded: 999, downloaded: 1000, seconds: 10_000))
        XCTAssertTrue(settings.seedingIsDone(uploaded: 1000, downloaded: 1000, seconds: 0))
        settings.seedMinutes = 2
        XCTAssertTrue(settings.seedingIsDone(uploaded: 0, downloaded: 1000, seconds: 120))
        settings.seedRatio = 0
        XCTAssertTrue(settings.seedingIsDone(uploaded: 0, downloaded: 1000, seconds: 0))
        XCTAssertEqual(TorrentSettings().listenInterfaces, "0.0.0.0:6881,[::]:6881")
    }
}
