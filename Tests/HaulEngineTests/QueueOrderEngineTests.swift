import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// The list is the queue: moving a download changes which waiting one starts next, and the
/// order survives a restart.
final class QueueOrderEngineTests: EngineTestCase {
    var nginx: NginxServer!
    var www: String!

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "200k", workDirectory: dir.subdirectory("nginx"))
        for name in ["a", "b", "c", "d"] { try TestFiles.random(www + "/\(name).bin", size: 400_000) }
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    func names(_ engine: Engine) async -> [String] {
        await engine.allDownloads.map { $0.requestedName ?? "?" }
    }

    func testMovingADownloadToTheTopMakesItTheNextToStart() async throws {
        let engine = try makeEngine()
        try await engine.perform(.setConcurrency(1))
        var ids: [String: DownloadID] = [:]
        for name in ["a", "b", "c", "d"] {
            ids[name] = try await add(engine, nginx.url("slow/\(name).bin"), name: "\(name).bin")
        }
        let events = await engine.subscribe()
        await engine.start()
        try await waitFor(engine, ids["a"]!) { $0.state == .downloading }
        try await engine.perform(.move(.ids([ids["d"]!]), .top))
        let order = await names(engine)
        XCTAssertEqual(order, ["d.bin", "a.bin", "b.bin", "c.bin"])
        var sawMove = false
        for await event in events {
            if case .moved(let id, let position) = event {
                XCTAssertEqual(id, ids["d"])
                XCTAssertEqual(position, 0)
                sawMove = true
                break
            }
        }
        XCTAssertTrue(sawMove)
        let running = await engine.download(ids["a"]!)
        XCTAssertEqual(running?.state, .downloading, "a moved download keeps its state, and so do the others")

        try await engine.perform(.pause(.ids([ids["a"]!])))
        try await waitFor(engine, ids["d"]!) { $0.state == .downloading }
        let b = await engine.download(ids["b"]!)
        XCTAssertEqual(b?.state, .waiting, "d started before b")

        // A resumed download starts in its place in the list, not after the others.
        try await engine.perform(.resume(.ids([ids["a"]!])))
        try await engine.perform(.move(.ids([ids["c"]!]), .up))
        try await engine.perform(.move(.ids([ids["b"]!]), .bottom))
        let moved = await names(engine)
        XCTAssertEqual(moved, ["d.bin", "a.bin", "c.bin", "b.bin"], "b was last already")
        try await engine.perform(.move(.ids([ids["c"]!]), .down))
        let down = await names(engine)
        XCTAssertEqual(down, ["d.bin", "a.bin", "b.bin", "c.bin"])
        try await waitFor(engine, ids["a"]!, timeout: 30) { $0.state == .downloading }
        let c = await engine.download(ids["c"]!)
        XCTAssertEqual(c?.state, .waiting)
        await engine.shutdown()

        let again = try makeEngine()
        let restored = await names(again)
        XCTAssertEqual(restored, ["d.bin", "a.bin", "b.bin", "c.bin"], "the order is in the state file")
    }

    func testMovingPastTheEndsChangesNothing() async throws {
        let engine = try makeEngine()
        let a = try await add(engine, nginx.url("a.bin"), name: "a.bin", paused: true)
        let b = try await add(engine, nginx.url("b.bin"), name: "b.bin", paused: true)
        try await engine.perform(.move(.ids([a]), .up))
        try await engine.perform(.move(.ids([b]), .down))
        try await engine.perform(.move(.ids([a]), .top))
        try await engine.perform(.move(.ids([b]), .bottom))
        let order = await names(engine)
        XCTAssertEqual(order, ["a.bin", "b.bin"])
        try await engine.perform(.move(.ids([a, b]), .bottom))
        let both = await names(engine)
        XCTAssertEqual(both, ["a.bin", "b.bin"], "several keep their order among themselves")
    }
}
