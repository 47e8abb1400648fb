import HaulCore
import HaulHTTP
import XCTest

@testable import HaulEngine

/// The decisions of a download in pieces, driven by events and times the test makes up: no
/// socket, no clock.
final class ConnectionControllerTests: XCTestCase {
    let mib: Int64 = 1 << 20

    func controller(total: Int64 = 64 << 20, plan: SegmentPlan? = nil) -> ConnectionController {
        ConnectionController(
            plan: plan ?? SegmentPlan(total: total), total: total, tuning: SegmentTuning(), oneConnection: false,
            resumed: false, now: .zero)
    }

    /// The first connection writes the whole file from byte 0 at `rate` bytes a second.
    func started(_ c: inout ConnectionController) -> Int {
        let first = c.enlist()
        c.claimFirst(first)
        XCTAssertNil(c.beginWriting(first, 0..<c.total, now: .zero))
        return first
    }

    func testASlowFirstConnectionGetsCompanyAfterTheFirstLooks() {
        var c = controller()
        let first = started(&c)
        XCTAssertEqual(c.nextLook, .milliseconds(25), "two early looks")
        // 4 MB/s: 64 MiB would take 16 s alone.
        var look = c.look(now: .milliseconds(25), positions: [first: 100_000], limit: 8, speedLimit: nil, held: false)
        XCTAssertEqual(look.add, 0, "not before the first look's time is up")
        look = c.look(now: .milliseconds(50), positions: [first: 200_000], limit: 8, speedLimit: nil, held: false)
        XCTAssertEqual(look.add, 7, "up to the download's limit")
        XCTAssertTrue(look.markInPieces, "the state hears the file is in pieces before a byte is out of order")
        XCTAssertEqual(look.progress.received, 200_000)
        XCTAssertEqual(c.nextLook, .milliseconds(100))
    }

    func testAFastFirstConnectionTriesOneMoreAndGoesBackWhenItDoesNotPay() {
        var c = controller(total: 1 << 30)
        let first = started(&c)
        var position: Int64 = 0
        var now = Duration.zero
        var look = ConnectionController.Look(progress: .init(received: 0))
        // 100 MB/s on one connection, for longer than the half second a fast link is judged over.
        for _ in 0..<8 {
            now += .milliseconds(100)
            position += 10_000_000
            look = c.look(now: now, positions: [first: position], limit: 8, speedLimit: nil, held: false)
            if look.add > 0 { break }
        }
        XCTAssertEqual(look.add, 1, "one more first, on a fast link")
        let second = c.enlist()
        guard case .split(let victim, let at) = c.assignment(for: second, now: now) else {
            return XCTFail("the newcomer takes part of the first piece")
        }
        XCTAssertEqual(victim, first)
        guard case .fetch(let range) = c.split(first, at: at, for: second, now: now) else { return XCTFail("a range") }
        XCTAssertNil(c.beginWriting(second, range, now: now))
        // Together they go no faster (a shared bottleneck): half a second later it is one again.
        var other = range.lowerBound
        var stopped: [Int] = []
        for _ in 0..<6 {
            now += .milliseconds(100)
            position += 5_000_000
            other += 5_000_000
            let look = c.look(
                now: now, positions: [first: position, second: other], limit: 8, speedLimit: nil, held: false)
            stopped += look.stop
            XCTAssertEqual(look.add, 0)
        }
        XCTAssertEqual(stopped, [second], "the newest connection goes")
        XCTAssertEqual(c.cap, 1)
    }

    func testUnderASpeedLimitThatHoldsItNoConnectionIsAdded() {
        var c = controller()
        let first = started(&c)
        _ = c.look(now: .milliseconds(25), positions: [first: 25_000], limit: 8, speedLimit: 1_000_000, held: true)
        let look = c.look(
            now: .milliseconds(50), positions: [first: 50_000], limit: 8, speedLimit: 1_000_000, held: true)
        XCTAssertEqual(look.add, 0)
    }

    /// A server that sends 1 MiB every half second (2 MiB/s) under a 6 MiB/s limit that is not
    /// holding it: between two looks the connection shows nothing or 10 MiB/s, but its pace is a
    /// third of the limit, so it gets company.
    func testUnderALimitABurstingConnectionIsJudgedByItsPaceNotItsLastLook() {
        var c = controller()
        let first = started(&c)
        var position: Int64 = 0
        var now = Duration.zero
        var added = 0
        for tick in 1...20 where added == 0 {
            now = .milliseconds(100 * tick)
            if tick % 5 == 1 { position += mib }
            let look = c.look(now: now, positions: [first: position], limit: 8, speedLimit: 6_291_456, held: false)
            added = look.add
        }
        XCTAssertGreaterThan(added, 0, "company within two seconds")
        XCTAssertLessThanOrEqual(added, 2, "as many as the limit has room for at its pace, not all eight")
    }

    /// A connection that has received nothing yet, under a limit no pace comes near: the room
    /// the limit has is beyond any count, and every connection allowed is added.
    func testUnderAVastLimitAStalledConnectionGetsEveryConnectionAllowed() {
        var c = controller()
        let first = started(&c)
        var added = 0
        for tick in 1...5 where added == 0 {
            added =
                c.look(now: .milliseconds(100 * tick), positions: [first: 0], limit: 8, speedLimit: 1e19, held: false)
                .add
        }
        XCTAssertEqual(added, 7)
    }

    func testAConnectionTurnedAwayLowersTheCapAndTheLastOneEndsTheRun() {
        var c = controller()
        let first = started(&c)
        let second = c.enlist()
        let third = c.enlist()
        let refused = TransferFailure(.status(503))
        var (write, notice) = c.accept(.refused(refused), for: second)
        XCTAssertFalse(write)
        XCTAssertEqual(notice, .fewerConnections(2, because: .status(503)))
        XCTAssertEqual(c.cap, 2)
        XCTAssertTrue(c.leave(second) == false)
        XCTAssertTrue(c.accept(.accepted, for: third).write)
        XCTAssertFalse(c.leave(third))
        (write, notice) = c.accept(.wrongRange(.wrongRange(asked: "0-9", got: "5-14")), for: first)
        XCTAssertFalse(write)
        XCTAssertNil(notice)
        guard case .ending(SegmentedTransfer.Stop.startOver(.rangeMismatch)) = c.phase else {
            return XCTFail("the last connection's wrong range starts the file over on one connection")
        }
        XCTAssertFalse(c.goesOn(first))
    }

    func testAChangedFileEndsTheRunToStartOver() {
        var c = controller()
        let first = started(&c)
        _ = c.accept(.fileChanged, for: first)
        guard case .ending(SegmentedTransfer.Stop.startOver(.remoteChanged)) = c.phase else {
            return XCTFail("start over")
        }
    }

    func testFailuresPauseLongerEachTimeThenTheConnectionStops() {
        var c = controller()
        let first = started(&c)
        let second = c.enlist()
        let reset = TransferFailure(.serverClosedConnection)
        XCTAssertEqual(c.failed(second, reset, failures: 1), .milliseconds(250))
        XCTAssertEqual(c.failed(second, reset, failures: 2), .milliseconds(500))
        XCTAssertNil(c.failed(second, reset, failures: 3), "three in a row: it stops")
        XCTAssertFalse(c.isEnding, "others go on")
        XCTAssertFalse(c.leave(second))
        XCTAssertNil(c.failed(first, reset, failures: 3))
        XCTAssertTrue(c.isEnding, "the last connection giving up ends the run")
    }

    func testAFailureNoRetryMendsEndsTheRunAtOnce() {
        var c = controller()
        let first = started(&c)
        XCTAssertNil(c.failed(first, TransferFailure(.diskFull(shortfall: 10)), failures: 1))
        XCTAssertTrue(c.isEnding)
    }

    func testAConnectionFourTimesSlowerThanTheOthersIsReplaced() {
        // A map of four pieces, as a resumed download has.
        let map = (0..<4).map { Segment(start: Int64($0) * 64 * mib, end: Int64($0 + 1) * 64 * mib) }
        var c = controller(total: 256 << 20, plan: SegmentPlan(total: 256 << 20, map: map))
        var workers: [Int] = []
        var positions: [Int: Int64] = [:]
        for _ in 0..<4 {
            let worker = c.enlist()
            guard case .fetch(let range) = c.assignment(for: worker, now: .zero) else { return XCTFail("work") }
            _ = c.beginWriting(worker, range, now: .zero)
            workers.append(worker)
            positions[worker] = range.lowerBound
        }
        var replaced: [Int] = []
        var now = Duration.zero
        for _ in 0..<15 {
            now += .milliseconds(100)
            for (i, worker) in workers.enumerated() { positions[worker]! += i == 3 ? 10_000 : 400_000 }
            let look = c.look(now: now, positions: positions, limit: 4, speedLimit: nil, held: false)
            replaced += look.stop
            XCTAssertEqual(look.replace, look.stop.count)
        }
        XCTAssertEqual(replaced, [workers[3]])
    }

    func testAMapIsSavedEveryMebibytePerConnectionOrSecondOnceTheFileIsInPieces() {
        var c = controller()
        let first = started(&c)
        var look = c.look(now: .milliseconds(25), positions: [first: 3 * mib], limit: 1, speedLimit: nil, held: false)
        XCTAssertNil(look.save, "one piece: the .part is its own prefix, no map")
        let second = c.enlist()
        guard case .split(let victim, let at) = c.assignment(for: second, now: .zero),
            case .fetch(let range) = c.split(victim, at: at, for: second, now: .zero)
        else { return XCTFail("a split") }
        _ = c.beginWriting(second, range, now: .zero)
        look = c.look(
            now: .milliseconds(50), positions: [first: 4 * mib, second: range.lowerBound + 2 * mib], limit: 2,
            speedLimit: nil, held: false)
        let map = try? XCTUnwrap(look.save)
        XCTAssertEqual(map?.received, 6 * mib)
        look = c.look(
            now: .milliseconds(150), positions: [first: 5 * mib, second: range.lowerBound + 3 * mib], limit: 2,
            speedLimit: nil, held: false)
        XCTAssertNil(look.save, "not while a save is on its way")
        c.mapSaved(received: 6 * mib, now: .milliseconds(160))
        look = c.look(
            now: .milliseconds(250), positions: [first: 5 * mib + 1, second: range.lowerBound + 3 * mib], limit: 2,
            speedLimit: nil, held: false)
        XCTAssertEqual(look.save?.received, 8 * mib + 1, "2 MiB for 2 connections")
        c.mapSaved(received: nil, now: .milliseconds(260))
        look = c.look(
            now: .milliseconds(1300), positions: [first: 5 * mib + 2, second: range.lowerBound + 3 * mib], limit: 2,
            speedLimit: nil, held: false)
        XCTAssertEqual(look.save?.received, 8 * mib + 2, "a failed save is tried again; a second passed")
        XCTAssertTrue(c.keepsMap)
    }

    func testTheOutcome() {
        var c = controller(total: 10)
        let first = started(&c)
        XCTAssertNil(c.outcome, "short of the end, nothing ended it")
        c.advance(first, to: 10)
        XCTAssertEqual(try c.outcome?.get(), [Segment(start: 0, end: 10, received: 10)])
    }
}
