import HaulCore
import HaulTestSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import XCTest

@testable import HaulHTTP

/// Transfers run on event loops used as task executors: spread over the loops, kept on theirs
/// across suspensions, and their plain-HTTP requests go out on connections of that loop.
final class TransferLanesTests: XCTestCase {
    private var group: MultiThreadedEventLoopGroup!
    private var loops: [EventLoop] = []

    override func setUp() async throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        loops = Array(group.makeIterator())
    }

    override func tearDown() async throws {
        try await group.shutdownGracefully()
    }

    /// Which of `loops` the calling thread runs, -1 for none.
    private static func current(_ loops: [EventLoop]) -> Int { loops.firstIndex { $0.inEventLoop } ?? -1 }

    /// What the tasks saw, by name.
    private final class Seen: Sendable {
        let loops = Mutex<[String: [Int]]>([:])
        func note(_ name: String, _ loop: Int) { loops.withLock { $0[name, default: []].append(loop) } }
    }

    func testTransfersAreSpreadOverTheLanesAndStayOnTheirLoop() async {
        let lanes = TransferLanes(group: group)
        let seen = Seen()
        var tasks: [Task<Void, Never>] = []
        for n in 0..<4 {
            tasks.append(
                lanes.run { [loops] in
                    seen.note("\(n)", Self.current(loops))
                    try? await Task.sleep(for: .milliseconds(100))
                    seen.note("\(n)", Self.current(loops))
                })
        }
        for task in tasks { await task.value }
        let byTask = seen.loops.withLock { $0 }
        for n in 0..<4 {
            let loops = byTask["\(n)"] ?? []
            XCTAssertEqual(loops.count, 2)
            XCTAssertTrue(loops.allSatisfy { $0 == loops.first && $0 >= 0 }, "task \(n) ran on loops \(loops)")
        }
        let firstLoops = (0..<4).compactMap { byTask["\($0)"]?.first }
        XCTAssertEqual(firstLoops.filter { $0 == 0 }.count, 2, "four transfers on two lanes: \(firstLoops)")
    }

    func testATransferStartedFromALaneStaysOnItAmongEquallyLoadedLanes() async {
        let lanes = TransferLanes(group: group)
        let seen = Seen()
        let release = Mutex(false)
        // One transfer on each lane, the first one parked; the second starts a third.
        let parked = lanes.run {
            while !release.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
        }
        let starter = lanes.run { [loops] in
            seen.note("starter", Self.current(loops))
            await lanes.run { [loops] in seen.note("started", Self.current(loops)) }.value
        }
        await starter.value
        release.withLock { $0 = true }
        await parked.value
        let byTask = seen.loops.withLock { $0 }
        XCTAssertEqual(byTask["starter"], [1])
        XCTAssertEqual(byTask["started"], [1], "started on the starter's lane, not the first one")
    }

    func testPlainRequestsFromTwoLanesGoOutOnTheirOwnLoops() async throws {
        let dir = TestDirectory()
        let www = dir.subdirectory("www")
        try TestFiles.random(www + "/a.bin", size: 5000)
        let nginx = try await NginxServer(root: www, workDirectory: dir.subdirectory("nginx"))
        let target = try XCTUnwrap(CleartextHTTPClient.Target(url: nginx.url("a.bin")))
        // A machine busy with other tests can delay a connection's hand-back to the pool past the
        // next round's start, and the pool then lends the other loop's idle one (as it should);
        // so the rounds are taken again, up to three times, and one clean set must show it.
        var onItsLoop: [Bool] = []
        for _ in 0..<3 {
            onItsLoop = try await requestsInRounds(to: target)
            if onItsLoop == Array(repeating: true, count: 8) { break }
        }
        await nginx.stop()
        XCTAssertEqual(onItsLoop, Array(repeating: true, count: 8))
    }

    /// Four rounds of two requests at once, one per lane, on a fresh client: for each request,
    /// whether its connection is on its lane's loop.
    private func requestsInRounds(to target: CleartextHTTPClient.Target) async throws -> [Bool] {
        let client = CleartextHTTPClient(
            group: group, connectTimeout: .seconds(5), stallTimeout: .seconds(5), idleTimeout: .seconds(5),
            readSize: 64 * 1024)
        let lanes = TransferLanes(group: group)
        let onItsLoop = Mutex<[Bool]>([])
        // Rounds of two requests at once, one per lane: the first round makes a connection on
        // each loop, the later ones find the idle connection of their own loop.
        for _ in 0..<4 {
            let inFlight = Mutex(0)
            let requests = (0..<2).map { _ in
                lanes.run {
                    var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.uri)
                    head.headers.add(name: "Host", value: target.hostHeader)
                    guard
                        let exchange = try? await client.execute(
                            head, to: target,
                            makeSink: {
                                ResponseSink(
                                    loop: $0, pacing: UnpacedReads(), clock: SystemClock(),
                                    progressInterval: .seconds(60))
                            })
                    else { return }
                    onItsLoop.withLock { $0.append(exchange.channel.eventLoop.inEventLoop) }
                    inFlight.withLock { $0 += 1 }
                    while inFlight.withLock({ $0 }) < 2 { try? await Task.sleep(for: .milliseconds(2)) }
                    exchange.sink.discard()
                }
            }
            for request in requests { await request.value }
            try await Task.sleep(for: .milliseconds(50))
        }
        await client.shutdown()
        return onItsLoop.withLock { $0 }
    }
}
