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

    /// A session on loopback that nothing leaves.
    static func quietSession() -> TorrentSession {
        var settings = TorrentSettings()
        settings.dht = false
        settings.pex = false
        settings.lsd = false
        settings.portMapping = false
        settings.interface = "127.0.0.1"
        settings.port = 0
        let session = TorrentSession(settings: settings)
        session.startWaiting()
        return session
    }

    /// libtorrent answers resume data requests in order without naming the request: the wait for
    /// the latest must not end at the answer to one asked before it (a periodic save's, taken
    /// before the torrent's last piece, which the final save would otherwise keep).
    func testTheWaitForResumeDataEndsAtItsOwnAnswerNotAnEarlierOnes() async throws {
        let folder = TestDirectory("haul-session")
        let session = Self.quietSession()
        let id = DownloadID(rawValue: "abcdef")
        let metadata = try TorrentMetadata(torrent: Self.torrent())
        var download = Download(id: id, url: metadata.magnet, directory: folder.path, queueOrder: 0)
        download.torrent = TorrentFacts(infoHash: metadata.infoHash)
        let addition = TorrentAddition(
            source: .metainfo(Self.torrent()), directory: folder.path, rootName: nil, priorities: nil,
            downloadLimit: nil, uploadLimit: nil, pex: false)
        let added = await session.add(id, addition, owner: { _ in })
        XCTAssertNil(added)
        let store = TorrentStore(statePath: folder.path + "/state.json")
        for peers in 2...6 {
            // Asked and not waited for, then the torrent changes, then the save that is waited for.
            _ = await session.saveResumeData(id, onlyIfModified: false)
            await session.setLimits(id, download: nil, upload: nil, peers: peers)
            let saved = await TorrentTransfer.saveResumeData(
                of: download, session: session, store: store, onlyIfModified: false)
            XCTAssertTrue(saved)
            let resume = try XCTUnwrap(store.resumeData(metadata.infoHash).flatMap(Bencode.init))
            XCTAssertEqual(resume["max_connections"]?.integer, Int64(peers), "the save asked last")
        }
        await session.close()
    }

    /// Adding a torrent that is already in the session is refused, and the one there keeps
    /// its owner: its events still go where they went (a seeding watch is never cut off).
    func testAnAddOfATorrentAlreadyThereIsRefusedAndTheFirstKeepsItsEvents() async throws {
        let folder = TestDirectory("haul-session")
        let session = Self.quietSession()
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
