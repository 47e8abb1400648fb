import HaulTestSupport
import XCTest

@testable import HaulCore
@testable import HaulEngine

/// Which run of a download a report comes from: the one going on, one told to stop that has not
/// ended (its placed file still counts), or an older one (it changes nothing).
final class RunningTransfersTests: XCTestCase {
    private let id = DownloadID(rawValue: "abc123")

    private func run(_ transfers: inout RunningTransfers) -> UInt64 {
        let generation = transfers.takeGeneration()
        transfers.add(
            id,
            .init(
                generation: generation, task: Task {}, connections: ConnectionLimit(1),
                gate: RateGate(clock: TestClock()), origin: nil))
        return generation
    }

    func testAStoppedRunIsStoppingUntilItEndsAndOnlyThatRun() {
        var transfers = RunningTransfers()
        let first = run(&transfers)
        XCTAssertTrue(transfers.isCurrent(id, first))
        XCTAssertFalse(transfers.isStopping(id, first))

        let stopped = transfers.beginStopping(id)
        XCTAssertFalse(transfers.isCurrent(id, first))
        XCTAssertTrue(transfers.isStopping(id, first), "told to stop, it may still place its file")
        let second = run(&transfers)
        XCTAssertTrue(transfers.isCurrent(id, second))
        XCTAssertFalse(transfers.isStopping(id, second))

        transfers.stopped(id, stopped!.task)
        XCTAssertFalse(transfers.isStopping(id, first), "once it has ended, nothing of it counts")
    }

    func testAtShutdownEveryRunIsStopping() {
        var transfers = RunningTransfers()
        let generation = run(&transfers)
        let taken = transfers.removeAll()
        XCTAssertEqual(taken.count, 1)
        XCTAssertTrue(transfers.isEmpty)
        XCTAssertTrue(transfers.isStopping(id, generation))
        XCTAssertFalse(transfers.isStopping(id, generation + 1))
    }
}
