import Foundation
import XCTest

@testable import HaulCore

final class RetryPolicyTests: XCTestCase {
    func testBackoffDoublesWithJitterAndGivesUp() {
        let policy = RetryPolicy(maxRetries: 4, baseDelay: 1, maxDelay: 5)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: nil, jitter: 1), 1)
        XCTAssertEqual(policy.delay(beforeRetry: 2, retryAfter: nil, jitter: 1), 2)
        XCTAssertEqual(policy.delay(beforeRetry: 3, retryAfter: nil, jitter: 0), 2)
        XCTAssertEqual(policy.delay(beforeRetry: 4, retryAfter: nil, jitter: 1), 5)
        XCTAssertNil(policy.delay(beforeRetry: 5, retryAfter: nil, jitter: 1))
    }

    func testRetryAfterIsHonoured() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: 30, jitter: 0), 30)
        XCTAssertNil(policy.delay(beforeRetry: 1, retryAfter: 7200, jitter: 0))
        let now = Date(timeIntervalSince1970: 784_111_777)
        XCTAssertEqual(RetryPolicy.parseRetryAfter("120", now: now), 120)
        XCTAssertEqual(RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:47 GMT", now: now), 10)
        XCTAssertNil(RetryPolicy.parseRetryAfter("soon", now: now))
    }
}

final class SpeedMeterTests: XCTestCase {
    func testSmoothsAndEstimates() {
        var meter = SpeedMeter(interval: 0.5, smoothing: 0.5)
        meter.record(bytes: 0, at: 0)
        meter.record(bytes: 1000, at: 1)
        XCTAssertEqual(meter.bytesPerSecond, 1000)
        meter.record(bytes: 1100, at: 1.1) // too soon: folded into the next sample
        XCTAssertEqual(meter.bytesPerSecond, 1000)
        meter.record(bytes: 4000, at: 2)
        XCTAssertEqual(meter.bytesPerSecond, 2000)
        XCTAssertEqual(meter.eta(remaining: 6000), 3)
        XCTAssertNil(SpeedMeter().eta(remaining: 10))
    }
}
