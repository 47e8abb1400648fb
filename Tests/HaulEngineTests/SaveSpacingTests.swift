import XCTest

@testable import HaulEngine

/// When a save asked for waits: never less than asked, and no sooner than ten times the last
/// save's cost after it began, so a large state is not rewritten back to back.
final class SaveSpacingTests: XCTestCase {
    func wait(_ delay: Duration, now: Duration, last: Duration, cost: Duration) -> Duration {
        StatePersistence.wait(for: delay, now: now, lastSave: last, lastSaveCost: cost)
    }

    func testACheapSaveWaitsWhatWasAsked() {
        XCTAssertEqual(
            wait(.milliseconds(500), now: .seconds(10), last: .seconds(9), cost: .milliseconds(5)), .milliseconds(500))
        XCTAssertEqual(wait(.zero, now: .seconds(10), last: .seconds(9), cost: .milliseconds(5)), .zero)
    }

    func testACostlySaveSpacesTheNextOne() {
        // The last save began at 10 s and took 300 ms: the next begins no sooner than 13 s.
        XCTAssertEqual(
            wait(.milliseconds(500), now: .milliseconds(10_400), last: .seconds(10), cost: .milliseconds(300)),
            .milliseconds(2_600))
        XCTAssertEqual(wait(.zero, now: .seconds(12), last: .seconds(10), cost: .milliseconds(300)), .seconds(1))
        // Past the spacing, only the delay asked for.
        XCTAssertEqual(
            wait(.milliseconds(500), now: .seconds(14), last: .seconds(10), cost: .milliseconds(300)),
            .milliseconds(500))
    }
}
