import XCTest

@testable import HaulCore

/// Work that ends in time is reported as such, every time; work that does not is given up on.
final class TimeLimitTests: XCTestCase {
    func testWorkThatEndsInTimeIsAlwaysReportedFinished() async {
        // Ending the work cancels the timer; a cancelled timer must never answer "too late"
        // before the work's own answer is in.
        var late = 0
        for _ in 0..<2_000 where await !TimeLimit.run(.seconds(30), {}) { late += 1 }
        XCTAssertEqual(late, 0)
    }

    func testWorkPastTheLimitIsGivenUpOn() async {
        let started = ContinuousClock.now
        let finished = await TimeLimit.run(.milliseconds(100)) { try? await Task.sleep(for: .seconds(30)) }
        XCTAssertFalse(finished)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10), "the caller went on at the limit")
    }
}
