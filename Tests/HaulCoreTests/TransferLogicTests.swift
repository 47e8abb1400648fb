import Foundation
import XCTest

@testable import HaulCore

final class RetryPolicyTests: XCTestCase {
    func testBackoffDoublesWithJitterAndGivesUp() {
        let policy = RetryPolicy(maxRetries: 4, baseDelay: .seconds(1), maxDelay: .seconds(5))
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: nil, jitter: 1), .seconds(1))
        XCTAssertEqual(policy.delay(beforeRetry: 2, retryAfter: nil, jitter: 1), .seconds(2))
        XCTAssertEqual(policy.delay(beforeRetry: 3, retryAfter: nil, jitter: 0), .seconds(2))
        XCTAssertEqual(policy.delay(beforeRetry: 4, retryAfter: nil, jitter: 1), .seconds(5))
        XCTAssertNil(policy.delay(beforeRetry: 5, retryAfter: nil, jitter: 1))
    }

    /// wget's `--tries` and aria2's `max-tries` count every attempt; 0 is no limit.
    func testADownloadsOwnTriesCountEveryAttempt() {
        let policy = RetryPolicy(maxRetries: 5, baseDelay: .seconds(1), maxDelay: .seconds(60))
        XCTAssertEqual(policy.allowing(tries: nil), policy)
        XCTAssertNil(policy.allowing(tries: 1).delay(beforeRetry: 1, retryAfter: nil, jitter: 1), "one try: none again")
        XCTAssertNotNil(policy.allowing(tries: 3).delay(beforeRetry: 2, retryAfter: nil, jitter: 1))
        XCTAssertNil(policy.allowing(tries: 3).delay(beforeRetry: 3, retryAfter: nil, jitter: 1))
        let endless = policy.allowing(tries: 0)
        XCTAssertEqual(endless.delay(beforeRetry: 10_000, retryAfter: nil, jitter: 1), .seconds(60))
        let notice = Notice.retrying(
            because: .status(503), at: Date(timeIntervalSince1970: 10), attempt: 7, of: endless.maxRetries)
        XCTAssertTrue(ReasonText.notice(notice, now: nil).hasSuffix("retrying (try 8)"))
    }

    func testRetryAfterIsHonoured() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: .seconds(30), jitter: 0), .seconds(30))
        XCTAssertNil(policy.delay(beforeRetry: 1, retryAfter: .seconds(7200), jitter: 0))
        let now = Date(timeIntervalSince1970: 784_111_777)
        XCTAssertEqual(RetryPolicy.parseRetryAfter("120", now: now), .seconds(120))
        XCTAssertEqual(RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:47 GMT", now: now), .seconds(10))
        XCTAssertNil(RetryPolicy.parseRetryAfter("soon", now: now))
    }
}

final class SpeedMeterTests: XCTestCase {
    func testSmoothsAndEstimates() {
        var meter = SpeedMeter(interval: .milliseconds(500), smoothing: 0.5)
        meter.record(bytes: 0, at: .zero)
        meter.record(bytes: 1000, at: .seconds(1))
        XCTAssertEqual(meter.bytesPerSecond, 1000)
        meter.record(bytes: 1100, at: .milliseconds(1100)) // too soon: folded into the next sample
        XCTAssertEqual(meter.bytesPerSecond, 1000)
        meter.record(bytes: 4000, at: .seconds(2))
        XCTAssertEqual(meter.bytesPerSecond, 2000)
        XCTAssertEqual(meter.eta(remaining: 6000), 3)
        XCTAssertNil(SpeedMeter().eta(remaining: 10))
    }

    /// A meter whose bytes stopped still says its last speed until it is settled: it is quiet
    /// once nothing was recorded for the time given, and settled it says 0 and no ETA.
    func testAMeterWithNoBytesForAWhileIsQuietAndSettlesToZero() {
        var meter = SpeedMeter(interval: .milliseconds(500), smoothing: 0.5)
        XCTAssertFalse(meter.isQuiet(at: .seconds(10), after: .seconds(2)), "nothing recorded yet")
        meter.record(bytes: 0, at: .zero)
        meter.record(bytes: 1000, at: .seconds(1))
        XCTAssertFalse(meter.isQuiet(at: .milliseconds(2900), after: .seconds(2)))
        XCTAssertTrue(meter.isQuiet(at: .seconds(3), after: .seconds(2)))
        meter.settle()
        XCTAssertEqual(meter.bytesPerSecond, 0)
        XCTAssertNil(meter.eta(remaining: 100))
        XCTAssertFalse(meter.isQuiet(at: .seconds(4), after: .seconds(2)), "said once")
        meter.record(bytes: 3000, at: .seconds(5))
        XCTAssertEqual(meter.bytesPerSecond, 500, "measured from the last record, over the quiet spell")
    }
}
