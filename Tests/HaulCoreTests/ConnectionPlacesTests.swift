import XCTest

@testable import HaulCore

/// How `-j` counts downloads when small files of one host share an HTTP/2 connection.
final class ConnectionPlacesTests: XCTestCase {
    func testDownloadsWithConnectionsOfTheirOwnTakeAPlaceEach() {
        var places = ConnectionPlaces(running: [nil, nil])
        XCTAssertEqual(places.used, 2)
        XCTAssertEqual(places.room(limit: 3), 1)
        XCTAssertTrue(places.admit(nil, limit: 3))
        XCTAssertFalse(places.admit(nil, limit: 3), "the limit is reached")
        XCTAssertFalse(places.admit("https://h", limit: 3), "a shared host needs a place too when none is open")
        XCTAssertEqual(places.used, 3)
    }

    func testSmallFilesOfASharedHostFillAPlaceBeforeTakingTheNext() {
        var places = ConnectionPlaces(running: ["https://h"], streamsPerPlace: 4)
        XCTAssertEqual(places.used, 1)
        XCTAssertEqual(places.room(limit: 2), 1 + 3)
        for _ in 0..<3 { XCTAssertTrue(places.admit("https://h", limit: 2)) }
        XCTAssertEqual(places.used, 1, "three more streams ride the same place")
        XCTAssertTrue(places.admit("https://h", limit: 2))
        XCTAssertEqual(places.used, 2, "the fifth opens a second place")
        XCTAssertFalse(places.admit(nil, limit: 2), "no place is left for a download of its own")
        XCTAssertFalse(places.admit("https://other", limit: 2), "nor for another host")
        for _ in 0..<3 { XCTAssertTrue(places.admit("https://h", limit: 2)) }
        XCTAssertFalse(places.admit("https://h", limit: 2), "both places are full")
        XCTAssertEqual(places.room(limit: 2), 0)
    }

    func testRunningRidersAreCountedByPlaces() {
        let places = ConnectionPlaces(running: Array(repeating: "https://h", count: 9) + [nil], streamsPerPlace: 8)
        XCTAssertEqual(places.used, 3, "nine streams take two places, the download of its own a third")
        XCTAssertEqual(places.room(limit: 3), 7)
    }

    /// A download that must wait for a place does not hold back the ones after it that a spare
    /// stream lets start.
    func testSchedulerStartsWhatFitsInQueueOrder() {
        var waiting = WaitingQueue()
        for (order, id) in ["own", "s1", "s2"].enumerated() {
            waiting.insert(DownloadID(rawValue: id), order: UInt64(order))
        }
        var places = ConnectionPlaces(running: ["https://h"])
        let candidates = Scheduler.candidates(waiting: &waiting, places: places, limit: 1)
        XCTAssertEqual(candidates.map(\.rawValue), ["own", "s1", "s2"])
        let started = Scheduler.downloadsToStart(candidates, places: &places, limit: 1) {
            $0.rawValue == "own" ? nil : "https://h"
        }
        XCTAssertEqual(started.map(\.rawValue), ["s1", "s2"])
        XCTAssertEqual(places.used, 1)
    }
}

final class SharedHostsTests: XCTestCase {
    let small: Int64 = 32 * 1024
    let large: Int64 = SharedHosts.smallFileLimit + 1

    func testAHostSharesOnlyAfterAnHTTP2AnswerOfASmallFile() {
        var hosts = SharedHosts()
        XCTAssertNil(hosts.sharedHost("https://h/a", size: nil), "nothing is known of the host yet")
        XCTAssertFalse(hosts.answered("https://h/a", multiplexed: false, size: small), "HTTP/1.1 changes nothing")
        XCTAssertNil(hosts.sharedHost("https://h/b", size: nil))
        XCTAssertTrue(hosts.answered("https://h/a", multiplexed: true, size: small))
        XCTAssertEqual(hosts.sharedHost("https://H/b", size: nil), "https://h")
        XCTAssertEqual(hosts.sharedHost("https://h:443/b", size: nil), nil, "another authority is another connection")
        XCTAssertNil(hosts.sharedHost("https://h/big", size: large), "a large file takes a place of its own")
        XCTAssertNil(hosts.sharedHost("https://other/b", size: nil))
    }

    func testALargeFileOrAnHTTP1AnswerStopsTheSharing() {
        var hosts = SharedHosts()
        hosts.answered("https://h/a", multiplexed: true, size: small)
        XCTAssertFalse(hosts.answered("https://h/b", multiplexed: true, size: nil), "unknown sizes count as small")
        XCTAssertTrue(hosts.answered("https://h/iso", multiplexed: true, size: large))
        XCTAssertNil(hosts.sharedHost("https://h/next", size: nil), "the next file may be large too")
        XCTAssertTrue(hosts.answered("https://h/c", multiplexed: true, size: small))
        XCTAssertTrue(hosts.answered("https://h/d", multiplexed: false, size: small), "the host went back to HTTP/1.1")
        XCTAssertNil(hosts.sharedHost("https://h/e", size: small))
        XCTAssertTrue(hosts.isEmpty)
    }

    func testTorrentsAndLargeFilesTakeAPlaceOfTheirOwn() {
        var hosts = SharedHosts()
        hosts.answered("https://h/a", multiplexed: true, size: small)
        var file = Download(id: DownloadID(rawValue: "1"), url: "https://h/f", directory: "/tmp", queueOrder: 0)
        XCTAssertEqual(hosts.sharedHost(of: file), "https://h")
        XCTAssertTrue(hosts.shares("https://h"))
        file.totalBytes = large
        XCTAssertNil(hosts.sharedHost(of: file))
        let torrent = Download(
            id: DownloadID(rawValue: "2"), url: "magnet:?xt=urn:btih:" + String(repeating: "a", count: 40),
            directory: "/tmp", queueOrder: 0)
        XCTAssertNil(hosts.sharedHost(of: torrent))
    }

    func testOrigins() {
        XCTAssertEqual(SharedHosts.origin(of: "HTTPS://user:pw@Host.Example:8443/p?q#f"), "https://host.example:8443")
        XCTAssertEqual(SharedHosts.origin(of: "https://h?q=/x"), "https://h")
        XCTAssertEqual(SharedHosts.origin(of: "http://[::1]:8080/x"), "http://[::1]:8080")
        XCTAssertNil(SharedHosts.origin(of: "magnet:?xt=urn:btih:abc"))
        XCTAssertNil(SharedHosts.origin(of: "://h/x"))
        XCTAssertNil(SharedHosts.origin(of: "https:///x"))
    }

    func testKnowledgeIsBounded() {
        var hosts = SharedHosts()
        for n in 0..<(SharedHosts.capacity + 10) { hosts.answered("https://h\(n)/a", multiplexed: true, size: small) }
        XCTAssertNotNil(hosts.sharedHost("https://h\(SharedHosts.capacity + 9)/b", size: nil))
        XCTAssertNil(hosts.sharedHost("https://h0/b", size: nil), "the oldest knowledge was dropped")
    }
}
