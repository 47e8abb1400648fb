import HaulCore
import HaulTestSupport
import Synchronization
import XCTest

@testable import HaulEngine

/// The libtorrent session itself, on loopback with nothing that leaves it (no DHT, peer exchange,
/// local discovery or port mapping).
final class TorrentSessionTests: XCTestCase {
    /// A torrent of one file of 100 zero bytes that nobody serves.
    static func torrent() -> [UInt8] {
        let info = Bencode.dictionary([
            "length": .integer(100), "name": .bytes(Array("zeros.bin".utf8)), "piece length": .integer(16_384),
            "pieces": .bytes(TestDigest.sha1([UInt8](repeating: 0, count: 100))),
        ])
        return Bencode.dictionary(["announce": .bytes(Array("http://127.0.0.1:9/announce".utf8)), "info": info])
            .encoded
    }

    /// Adding a torrent that is already in the session is refused, and the one there keeps
    /// its owner: its events still go where they went (a seeding watch is never cut off).
    func testAnAddOfATorrentAlreadyThereIsRefusedAndTheFirstKeepsItsEvents() async throws {
        let folder = TestDirectory("haul-session")
        var settings = TorrentSettings()
        settings.dht = false
        settings.pex = false
        settings.lsd = false
        settings.portMapping = false
        settings.interface = "127.0.0.1"
        settings.port = 0
        let session = TorrentSession(settings: settings)
        session.startWaiting()
        let id = DownloadID(rawValue: "abcdef")
        let addition = TorrentAddition(
            source: .metainfo(Self.torrent()), directory: folder.path, rootName: nil, priorities: nil,
            downloadLimit: nil, uploadLimit: nil, pex: false)
        let first = Mutex(0)
        let second = Mutex(0)
        let added = await session.add(id, addition, owner: { _ in first.withLock { $0 += 1 } })
        XCTAssertNil(added)
        let again = await session.add(id, addition, owner: { _ in second.withLock { $0 += 1 } })
        XCTAssertNotNil(again, "the same torrent twice")
        // Its status arrives once a second: the first owner hears it, the refused one never.
        for _ in 0..<50 where first.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(100)) }
        XCTAssertGreaterThan(first.withLock { $0 }, 0)
        XCTAssertEqual(second.withLock { $0 }, 0)
        await session.close()
    }
}
