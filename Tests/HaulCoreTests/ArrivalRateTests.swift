import XCTest

@testable import HaulCore

/// The rate of a running count of bytes over the last few seconds.
final class ArrivalRateTests: XCTestCase {
    func testTheRateIsTheBytesOverTheWindowOnceItSpansHalfASecond() {
        var rate = ArrivalRate()
        XCTAssertNil(rate.record(0, at: 10))
        XCTAssertNil(rate.record(1000, at: 10.4), "under half a second says nothing")
        XCTAssertEqual(rate.record(2000, at: 11), 2000)
        XCTAssertEqual(rate.record(4000, at: 12), 2000)
        XCTAssertEqual(rate.record(6000, at: 13), 2000)
        // At 15 s the readings before 12 s have left the window: 6,000 bytes over 3 s.
        XCTAssertEqual(rate.record(10_000, at: 15), 2000)
        XCTAssertEqual(rate.record(10_000, at: 18), 0, "nothing arrived in the last 3 s")
    }

    func testACountThatFallsIsNoNegativeRate() {
        var rate = ArrivalRate()
        _ = rate.record(5000, at: 0)
        XCTAssertEqual(rate.record(1000, at: 1), 0)
    }
}
