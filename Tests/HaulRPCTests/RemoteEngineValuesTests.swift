import HaulCore
import XCTest

@testable import HaulAria2Wire
@testable import HaulRPC
@testable import HaulRPCClient

/// What a remote engine's answers become in haul, without a socket: statuses as downloads, the
/// bitfield as a map, polls as the events a UI applies, commands as aria2's calls, addresses.
final class RemoteEngineValuesTests: XCTestCase {
    private func status(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue { .object(members) }

    private func file(_ path: String, uris: [String]) -> JSONValue {
        .array([
            .object([
                "index": .string("1"), "path": .string(path),
                "uris": .array(uris.map { .object(["uri": .string($0), "status": .string("used")]) }),
            ])
        ])
    }

    func testAnActiveStatusIsARunningDownloadWithItsSpeedAndETA() throws {
        let remote = try XCTUnwrap(
            RemoteDownload(
                status([
                    "gid": .string("2089b05ecca3d829"), "status": .string("active"), "totalLength": .string("1000"),
                    "completedLength": .string("250"), "downloadSpeed": .string("50"), "connections": .string("3"),
                    "dir": .string("/srv/dl"), "files": file("/srv/dl/sub/a.iso", uris: ["http://a/x", "http://b/x"]),
                ]), position: 4))
        let d = remote.download
        XCTAssertEqual(d.id.rawValue, "2089b05ecca3d829")
        XCTAssertEqual(d.state, .downloading)
        XCTAssertEqual(d.fileName, "sub/a.iso", "the path below the download's folder")
        XCTAssertEqual(d.url, "http://a/x")
        XCTAssertEqual(d.request.sources.map(\.url), ["http://b/x"])
        XCTAssertEqual(d.totalBytes, 1000)
        XCTAssertEqual(d.receivedBytes, 250)
        XCTAssertEqual(d.activeConnections, 3)
        XCTAssertEqual(remote.sample?.bytesPerSecond, 50)
        XCTAssertEqual(remote.sample?.etaSeconds, 15)
    }

    func testEachStatusMapsToAStateAndAnUnknownOneWaits() throws {
        func state(_ text: String?, extra: KeyValuePairs<String, JSONValue> = [:]) throws -> DownloadState {
            var members: [JSONValue.Member] = [.init("gid", .string("00000000000000aa"))]
            if let text { members.append(.init("status", .string(text))) }
            members += extra.map { JSONValue.Member($0.key, $0.value) }
            return try XCTUnwrap(RemoteDownload(.object(members), position: 0)).download.state
        }
        XCTAssertEqual(try state("waiting"), .waiting)
        XCTAssertEqual(try state("paused"), .paused(by: .user))
        XCTAssertEqual(try state("complete"), .finished)
        XCTAssertEqual(try state("removed"), .failed(.cancelled))
        XCTAssertEqual(
            try state("error", extra: ["errorMessage": .string("Resource not found\u{1B}[2J")]),
            .failed(.other("the engine says: Resource not found")), "the engine's words, terminal-safe")
        XCTAssertEqual(
            try state("error", extra: ["errorCode": .string("3")]), .failed(.other("the engine reports error 3")))
        XCTAssertEqual(try state("seeding-someday"), .waiting)
        XCTAssertEqual(try state(nil), .waiting, "no status at all")
    }

    func testMissingOrOddFieldsAreUnknownNotACrash() throws {
        XCTAssertNil(RemoteDownload(status(["status": .string("active")]), position: 0), "no GID: nothing to show")
        let odd = try XCTUnwrap(
            RemoteDownload(
                status([
                    "gid": .string("00000000000000bb"), "totalLength": .string("lots"), "completedLength": .int(7),
                    "files": .string("not a list"), "dir": .int(3),
                ]), position: 0))
        XCTAssertNil(odd.download.totalBytes)
        XCTAssertEqual(odd.download.receivedBytes, 7, "a number sent as a number is taken too")
        XCTAssertNil(odd.download.fileName)
        XCTAssertEqual(odd.download.url, "")
        XCTAssertEqual(RemoteDownload.name(path: "/elsewhere/x\u{7}.bin", directory: "/srv"), "/elsewhere/x?.bin")
        XCTAssertEqual(RemoteDownload.name(path: "/srvother/x.bin", directory: "/srv"), "/srvother/x.bin")
        XCTAssertEqual(RemoteDownload.name(path: "/srv/x.bin", directory: "/srv/"), "x.bin")
    }

    func testAHaulEnginesGIDsAreShownAsItsOwnIDs() {
        XCTAssertEqual(RemoteID.id(forGID: "0000000000a1b2c3").rawValue, "a1b2c3")
        XCTAssertEqual(RemoteID.gid(for: DownloadID(rawValue: "a1b2c3")), "0000000000a1b2c3")
        XCTAssertEqual(RemoteID.id(forGID: "2089B05ECCA3D829").rawValue, "2089b05ecca3d829")
        XCTAssertEqual(RemoteID.gid(for: DownloadID(rawValue: "2089b05ecca3d829")), "2089b05ecca3d829")
    }

    func testTheBitfieldBecomesAMapOfRunsOfPieces() throws {
        // Ten pieces of 100 bytes, the last one 50: pieces 0-1 and 4 and 9 on disk.
        let map = try XCTUnwrap(Bitfield.segments(hex: "c840", pieceLength: 100, total: 950))
        XCTAssertEqual(
            map,
            [
                Segment(start: 0, end: 200, received: 200), Segment(start: 200, end: 400, received: 0),
                Segment(start: 400, end: 500, received: 100), Segment(start: 500, end: 900, received: 0),
                Segment(start: 900, end: 950, received: 50),
            ])
        XCTAssertEqual(
            Bitfield.segments(hex: "ff", pieceLength: 100, total: 800), [Segment(start: 0, end: 800, received: 800)])
        XCTAssertNil(Bitfield.segments(hex: "f", pieceLength: 100, total: 800), "too few digits")
        XCTAssertNil(Bitfield.segments(hex: "zz", pieceLength: 100, total: 800))
        XCTAssertNil(Bitfield.segments(hex: "ff", pieceLength: 0, total: 800))
        // What the server writes, the client reads back.
        let total: Int64 = 5 << 20 + 3
        let hex = Bitfield.hex(total: total, done: [0..<(2 << 20), (4 << 20)..<total])
        let back = try XCTUnwrap(Bitfield.segments(hex: hex, pieceLength: Bitfield.pieceLength, total: total))
        XCTAssertEqual(back.filter { $0.received > 0 }.map { $0.start..<$0.end }, [0..<(2 << 20), (4 << 20)..<total])
    }

    private func listed(_ gid: String, _ state: String, done: Int64 = 0, speed: Int64 = 0) -> RemoteDownload {
        RemoteDownload(
            status([
                "gid": .string(gid), "status": .string(state), "totalLength": .string("100"),
                "completedLength": .string(String(done)), "downloadSpeed": .string(String(speed)),
                "files": file("/d/\(gid).bin", uris: ["http://h/\(gid)"]), "dir": .string("/d"),
            ]), position: 0)!
    }

    func testAPollBecomesAddsUpdatesProgressRemovalsAndMovesInTheEnginesOrder() {
        var list = RemoteList()
        let now = Date(timeIntervalSince1970: 1000)
        var events = list.apply(
            [listed("a", "active", done: 10, speed: 5), listed("b", "waiting")], complete: true, now: now)
        XCTAssertEqual(events.filter { if case .added = $0 { true } else { false } }.count, 2)
        XCTAssertEqual(list.ordered.map(\.id.rawValue), ["a", "b"])
        XCTAssertEqual(list.ordered.first?.addedAt, now, "first seen")

        // Only progress moved: no whole update, one progress sample.
        events = list.apply([listed("a", "active", done: 40, speed: 5)], complete: false, now: now + 1)
        XCTAssertEqual(events.count, 1)
        guard case .progress(let sample) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(sample.receivedBytes, 40)
        XCTAssertEqual(list.ordered.map(\.id.rawValue), ["a", "b"], "a partial poll takes nothing away")

        // a finished and went to the stopped list after b, which started; c came.
        events = list.apply(
            [listed("b", "active", speed: 9), listed("c", "waiting"), listed("a", "complete", done: 100)],
            complete: true, now: now + 2)
        XCTAssertTrue(
            events.contains {
                if case .updated(let d) = $0 { d.id.rawValue == "a" && d.state == .finished } else { false }
            })
        XCTAssertTrue(events.contains { if case .added(let d) = $0 { d.id.rawValue == "c" } else { false } })
        XCTAssertEqual(list.ordered.map(\.id.rawValue), ["b", "c", "a"])
        // A UI that applies these moves has the same order: replay them on a plain array.
        var ui = ["a", "b"]
        for event in events {
            switch event {
            case .added(let d): ui.append(d.id.rawValue)
            case .moved(let id, let to):
                ui.remove(at: ui.firstIndex(of: id.rawValue)!)
                ui.insert(id.rawValue, at: to)
            default: break
            }
        }
        XCTAssertEqual(ui, ["b", "c", "a"])
        XCTAssertEqual(list.ordered.first { $0.id.rawValue == "a" }?.addedAt, now, "kept from the first sighting")

        events = list.apply([listed("c", "waiting")], complete: true, now: now + 3)
        XCTAssertEqual(events, [.removedMany([DownloadID(rawValue: "b"), DownloadID(rawValue: "a")])])
        // A GID listed twice (a list that changed between two calls) counts once.
        _ = list.apply([listed("c", "waiting"), listed("c", "waiting")], complete: true, now: now + 4)
        XCTAssertEqual(list.ordered.count, 1)
    }

    func testWaitsGrowToFifteenSecondsAndLooksFollowWhatRuns() {
        XCTAssertEqual(ReconnectSchedule.wait(afterFailures: 0), .zero)
        XCTAssertEqual(ReconnectSchedule.wait(afterFailures: 1), .milliseconds(500))
        XCTAssertEqual(ReconnectSchedule.wait(afterFailures: 2), .seconds(1))
        XCTAssertEqual(ReconnectSchedule.wait(afterFailures: 5), .seconds(8))
        XCTAssertEqual(ReconnectSchedule.wait(afterFailures: 6), .seconds(15))
        XCTAssertEqual(ReconnectSchedule.wait(afterFailures: 60), .seconds(15))
        XCTAssertEqual(PollPace.interval(anyRunning: true, hearsNotifications: true), .seconds(1))
        XCTAssertEqual(PollPace.interval(anyRunning: false, hearsNotifications: true), .seconds(5))
        XCTAssertEqual(PollPace.interval(anyRunning: false, hearsNotifications: false), .seconds(2))
    }

    func testAnAddIsAddUriWithAria2sOptionNames() throws {
        var request = DownloadRequest(
            url: "http://h/a.iso", directory: "/srv/isos", requestedName: "b.iso",
            headers: [try RequestHeader.parse("X-A: 1")], paused: true, connections: 24, speedLimit: 1000)
        request.sources = [DownloadSource(url: "http://m/a.iso", origin: .user)]
        let params = RemoteCommands.addParameters(request)
        XCTAssertEqual(params[0], .array([.string("http://h/a.iso"), .string("http://m/a.iso")]))
        XCTAssertEqual(params[1]["dir"], .string("/srv/isos"))
        XCTAssertEqual(params[1]["out"], .string("b.iso"))
        XCTAssertEqual(params[1]["header"], .array([.string("X-A: 1")]))
        XCTAssertEqual(params[1]["split"], .string("24"))
        XCTAssertEqual(params[1]["max-connection-per-server"], .string("16"), "aria2's most")
        XCTAssertEqual(params[1]["max-download-limit"], .string("1000"))
        XCTAssertEqual(params[1]["pause"], .string("true"))
        let magnet = "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))"
        let torrent = RemoteCommands.addParameters(DownloadRequest(url: magnet, directory: "", connections: 30))
        XCTAssertEqual(torrent[1], .object([.init("bt-max-peers", .string("30"))]), "a torrent's connections are peers")
        let plain = RemoteCommands.addParameters(DownloadRequest(url: "http://h/x", directory: ""))
        XCTAssertEqual(plain[1], .object([]), "no folder: the engine's own")
    }

    func testAnAddressIsAURLOrHostAndPortAndASecretInClearTextIsWarnedOf() throws {
        let ws = try RPCAddress("ws://nas:6800/jsonrpc")
        XCTAssertEqual(ws.callURL, "http://nas:6800/jsonrpc")
        XCTAssertEqual(ws.socketURL, "ws://nas:6800/jsonrpc")
        XCTAssertNotNil(ws.cleartextWarning(hasSecret: true))
        XCTAssertNil(ws.cleartextWarning(hasSecret: false))
        let bare = try RPCAddress("127.0.0.1:16800")
        XCTAssertEqual(bare.callURL, "http://127.0.0.1:16800/jsonrpc")
        XCTAssertNil(bare.cleartextWarning(hasSecret: true), "loopback never leaves the machine")
        let tls = try RPCAddress("wss://seedbox.example/rpc")
        XCTAssertEqual(tls.callURL, "https://seedbox.example:6800/rpc")
        XCTAssertNil(tls.cleartextWarning(hasSecret: true))
        XCTAssertEqual(try RPCAddress("http://[::1]:7000").place, "[::1]:7000")
        XCTAssertThrowsError(try RPCAddress("ftp://nas/jsonrpc"))
        XCTAssertThrowsError(try RPCAddress("ws://na s:6800"))
    }

    func testSavedRemotesAreReplacedByNameAndNamesAreNotAddresses() {
        var saved = SavedRemotes()
        saved.save(.init(name: "nas", url: "ws://nas:6800/jsonrpc", secret: "a"))
        saved.save(.init(name: "box", url: "http://box:6800/jsonrpc"))
        saved.save(.init(name: "nas", url: "ws://nas:6801/jsonrpc", secret: "b"))
        XCTAssertEqual(saved.remotes.map(\.name), ["nas", "box"])
        XCTAssertEqual(saved["nas"]?.secret, "b")
        XCTAssertTrue(saved.remove("box"))
        XCTAssertFalse(saved.remove("box"))
        XCTAssertNil(SavedRemotes.problem(withName: "nas"))
        XCTAssertNotNil(SavedRemotes.problem(withName: "nas:6800"))
        XCTAssertNotNil(SavedRemotes.problem(withName: ""))
    }

    func testTheHeaderNamesTheEngineAndAria2RefusesHaulsOwnFeatures() {
        var link = RemoteLink(place: "nas", engine: .aria2(version: "1.37.0"))
        XCTAssertEqual(link.label, "aria2 1.37.0 @ nas")
        XCTAssertEqual(link.unsupported("metered mode"), "metered mode is not supported by aria2")
        link.state = .slow
        XCTAssertEqual(link.label, "aria2 1.37.0 @ nas · slow to answer…")
        link.state = .reconnecting(problem: "connection refused")
        XCTAssertEqual(link.label, "aria2 1.37.0 @ nas · reconnecting…")
        XCTAssertNil(RemoteLink(place: "nas", engine: .haul(version: "1.0")).unsupported("metered mode"))
    }
}
