import HaulCore
import XCTest

/// How a segmented download hands out its pieces: splits, take-overs near the end, the map it
/// stores. No sockets: positions and rates are given.
final class SegmentPlanTests: XCTestCase {
    let mib: Int64 = 1 << 20

    func testAFreshConnectionTakesTheBackHalfOfTheLargestPieceInFlight() {
        var plan = SegmentPlan(total: 64 * mib)
        XCTAssertEqual(plan.claim(0, pieceAt: 0), 0..<64 * mib)
        plan.advance(0, to: 4 * mib)
        guard case .split(let victim, let at)? = plan.nextAssignment(for: 1) else {
            return XCTFail("a split was expected")
        }
        XCTAssertEqual(victim, 0)
        XCTAssertEqual(at, 34 * mib, "half of what is still to come, 4–64 MiB")
        XCTAssertEqual(plan.split(0, at: at, for: 1), 34 * mib..<64 * mib)
        XCTAssertEqual(plan.piece(of: 0)?.end, 34 * mib)
        // The next one halves the larger of the two.
        guard case .split(let second, let cut)? = plan.nextAssignment(for: 2) else {
            return XCTFail("a second split was expected")
        }
        XCTAssertEqual(second, 0)
        XCTAssertEqual(cut, 19 * mib)
    }

    func testAConnectionStoppedPastTheCutKeepsWhatItWrote() {
        var plan = SegmentPlan(total: 8 * mib)
        _ = plan.claim(0, pieceAt: 0)
        plan.advance(0, to: 1 * mib)
        // The response had reached 5 MiB by the time it was stopped at the asked 4.5 MiB.
        XCTAssertEqual(plan.split(0, at: 5 * mib, for: 1), 5 * mib..<8 * mib)
        XCTAssertEqual(plan.pieces.map(\.end), [5 * mib, 8 * mib])
        XCTAssertNil(plan.split(0, at: 9 * mib, for: 2), "nothing after the end to give")
    }

    func testNothingIsSplitBelowTwoMinimumPieces() {
        var plan = SegmentPlan(total: 2 * mib - 1)
        _ = plan.claim(0, pieceAt: 0)
        XCTAssertNil(plan.nextAssignment(for: 1))
        var larger = SegmentPlan(total: 10 * mib)
        _ = larger.claim(0, pieceAt: 0)
        larger.advance(0, to: 9 * mib - 1)
        XCTAssertNil(larger.nextAssignment(for: 1), "1 MiB left is not split between equals")
    }

    func testConnectionsAddedTogetherShareTheFileEvenly() {
        var plan = SegmentPlan(total: 64 * mib)
        _ = plan.claim(0, pieceAt: 0)
        for worker in 1...7 {
            guard case .split(let victim, let at)? = plan.nextAssignment(for: worker) else {
                return XCTFail("connection \(worker) got nothing")
            }
            XCTAssertNotNil(plan.split(victim, at: at, for: worker))
        }
        XCTAssertEqual(plan.pieces.map(\.remaining), Array(repeating: 8 * mib, count: 8))
        XCTAssertEqual(Set(plan.owners), Set(0...7))
    }

    func testAnUnownedPieceIsTakenBeforeAnythingIsSplit() {
        var plan = SegmentPlan(total: 64 * mib)
        _ = plan.claim(0, pieceAt: 0)
        _ = plan.split(0, at: 32 * mib, for: 1)
        plan.advance(1, to: 40 * mib)
        plan.release(1)
        XCTAssertEqual(plan.nextAssignment(for: 2), .unowned(start: 32 * mib))
        XCTAssertEqual(plan.claim(2, pieceAt: 32 * mib), 40 * mib..<64 * mib, "from where the last one stopped")
    }

    func testNearTheEndAnIdleConnectionTakesOverTheTailOfASlowOne() {
        var plan = SegmentPlan(total: 16 * mib)
        _ = plan.claim(0, pieceAt: 0)
        _ = plan.split(0, at: 8 * mib, for: 1)
        plan.advance(0, to: 8 * mib)
        plan.release(0)
        plan.advance(1, to: 15 * mib)
        // 1 MiB left at 256 KiB/s: 4 s. An idle connection at 4 MiB/s does it in a quarter second.
        let rates: [Int: Double] = [0: 4_194_304, 1: 262_144]
        guard case .split(let victim, let at)? = plan.nextAssignment(for: 0, rates: rates) else {
            return XCTFail("a take-over was expected")
        }
        XCTAssertEqual(victim, 1)
        XCTAssertLessThan(at - 15 * mib, 128 * 1024, "the slow one keeps what it fetches while the other does the rest")
        // Between equals the idle one takes about half: both finish in about 2 s instead of 4.
        guard case .split(_, let half)? = plan.nextAssignment(for: 0, rates: [0: 262_144, 1: 262_144]) else {
            return XCTFail("a split of the tail was expected")
        }
        XCTAssertEqual(Double(half - 15 * mib), Double(mib) / 2, accuracy: 128 * 1024)
        // With too little left to save a request's setup, nothing is taken.
        plan.advance(1, to: 16 * mib - 100_000)
        XCTAssertNil(plan.nextAssignment(for: 0, rates: [0: 4_194_304, 1: 4_194_304], setup: .milliseconds(50)))
    }

    func testTheStoredMapFoldsFinishedPiecesIntoTheNext() {
        var plan = SegmentPlan(total: 12 * mib)
        _ = plan.claim(0, pieceAt: 0)
        _ = plan.split(0, at: 4 * mib, for: 1)
        _ = plan.split(1, at: 8 * mib, for: 2)
        plan.advance(0, to: 4 * mib)
        plan.advance(1, to: 5 * mib)
        plan.advance(2, to: 12 * mib)
        XCTAssertEqual(
            plan.segments,
            [
                Segment(start: 0, end: 4 * mib, received: 4 * mib),
                Segment(start: 4 * mib, end: 8 * mib, received: mib),
                Segment(start: 8 * mib, end: 12 * mib, received: 4 * mib),
            ])
        let stored = plan.segments.compacted()
        XCTAssertEqual(
            stored,
            [
                Segment(start: 0, end: 8 * mib, received: 5 * mib),
                Segment(start: 8 * mib, end: 12 * mib, received: 4 * mib),
            ]
        )
        XCTAssertTrue(stored.isMap(ofSize: 12 * mib))
        XCTAssertEqual(stored.received, plan.received)
        XCTAssertEqual(SegmentPlan(total: 12 * mib, map: stored).received, 9 * mib, "a plan from the map resumes there")
    }

    func testAMapThatDoesNotCoverTheFileIsNotUsed() {
        XCTAssertFalse([Segment(start: 0, end: 10, received: 4)].isMap(ofSize: 11))
        XCTAssertFalse([Segment(start: 0, end: 5, received: 6), Segment(start: 5, end: 10)].isMap(ofSize: 10))
        XCTAssertFalse([Segment(start: 0, end: 5), Segment(start: 6, end: 10)].isMap(ofSize: 10))
        XCTAssertFalse([Segment]().isMap(ofSize: 0))
        XCTAssertTrue([Segment(start: 0, end: 5, received: 5), Segment(start: 5, end: 10)].isMap(ofSize: 10))
    }
}

/// When connections are added and replaced.
final class SegmentTuningTests: XCTestCase {
    let tuning = SegmentTuning()

    func testMoreConnectionsOnlyWhereTheyPay() {
        let mib: Int64 = 1 << 20
        XCTAssertFalse(
            tuning.wantsMoreConnections(remaining: 60 * mib, rate: 4e6, running: .milliseconds(10)), "judged too soon")
        XCTAssertTrue(
            tuning.wantsMoreConnections(remaining: 60 * mib, rate: 4e6, running: .milliseconds(200)), "15 s left")
        XCTAssertFalse(
            tuning.wantsMoreConnections(remaining: 600 * mib, rate: 2e9, running: .milliseconds(200)), "0.3 s left")
        XCTAssertFalse(
            tuning.wantsMoreConnections(remaining: mib, rate: 1e5, running: .seconds(5)), "too small to split")
        XCTAssertTrue(
            tuning.wantsMoreConnections(remaining: 8 * mib, rate: 0, running: .milliseconds(300)), "nothing came yet")
    }

    func testAddedConnectionsStayOnlyWhenTheyMadeTheDownloadFaster() {
        XCTAssertTrue(tuning.connectionsPay(before: 4e6, after: 30e6), "a server that caps each connection")
        XCTAssertFalse(tuning.connectionsPay(before: 1.2e9, after: 1.1e9), "loopback: the disk and CPU are shared")
        XCTAssertFalse(tuning.connectionsPay(before: 10e6, after: 12e6), "a fifth faster is not worth eight")
        XCTAssertTrue(tuning.connectionsPay(before: 0, after: 1e6), "nothing measured before: slow")
        XCTAssertTrue(
            tuning.connectionsPay(before: 2e6, after: 2.9e6, limit: 3e6), "at the limit, which is all there is to have")
        XCTAssertFalse(tuning.connectionsPay(before: 2e6, after: 2.1e6, limit: 3e6), "under a limit they did not help")
    }

    func testASlowConnectionIsReplacedOnlyWhenMeasuredAndFarBehindTheOthers() {
        let rates: [Int: Double] = [0: 4e6, 1: 4e6, 2: 4e6, 3: 0.25e6]
        XCTAssertEqual(
            tuning.slowConnections(
                rates: rates, measuredFor: [0: .seconds(5), 1: .seconds(5), 2: .seconds(5), 3: .seconds(5)]), [3])
        XCTAssertEqual(
            tuning.slowConnections(
                rates: rates, measuredFor: [0: .seconds(5), 1: .seconds(5), 2: .seconds(5), 3: .milliseconds(500)]), [],
            "too new")
        XCTAssertEqual(
            tuning.slowConnections(
                rates: [0: 4e6, 1: 1.5e6, 2: 4e6], measuredFor: [0: .seconds(5), 1: .seconds(5), 2: .seconds(5)]), [])
        XCTAssertEqual(
            tuning.slowConnections(rates: [0: 4e6, 1: 0.1e6], measuredFor: [0: .seconds(5), 1: .seconds(5)]), [], "two")
    }
}

extension SegmentPlanTests {
    func testAStuckConnectionsPieceIsTakenWhole() {
        var plan = SegmentPlan(total: 8 << 20)
        _ = plan.claim(1, pieceAt: 0)
        plan.advance(1, to: 7 << 20)
        // Connection 1 has 1 MiB left: too little to cut in two, but it is stuck.
        XCTAssertNil(plan.nextAssignment(for: 2, rates: [:]))
        XCTAssertEqual(plan.nextAssignment(for: 2, rates: [:], stuck: [1]), .split(victim: 1, at: 7 << 20))
        XCTAssertEqual(plan.split(1, at: 7 << 20, for: 2), (7 << 20)..<(8 << 20))
        XCTAssertNil(plan.nextAssignment(for: 2, rates: [:], stuck: [2]), "never its own piece")
    }
}
