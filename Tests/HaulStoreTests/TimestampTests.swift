import Foundation
import HaulCore
import XCTest

@testable import HaulStore

/// Time stamps to the microsecond, and how the state file writes them without `description`.
final class TimestampTests: XCTestCase {
    private func written(_ seconds: Double) -> String? {
        var out: [UInt8] = []
        guard JSONBytes.appendTimestamp(seconds, to: &out) else {
            XCTAssertTrue(out.isEmpty, "nothing written when declined")
            return nil
        }
        return String(decoding: out, as: UTF8.self)
    }

    func testStampsToTheMicrosecondAreWrittenAsDescriptionWrites() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let micros = Double(Int64.random(in: 1_000_000_000_000_000...8_499_999_999_999_999, using: &rng))
            let seconds = micros / 1_000_000
            guard seconds != seconds.rounded() else { continue }
            XCTAssertEqual(written(seconds), seconds.description, "\(micros)")
        }
        for seconds in [
            1.5, 1.000001, 1795624896.9327922.rounded(.down) + 0.932792, 4_000_000_000.000001, 1_700_000_000.1,
            1_700_000_000.25,
        ] {
            XCTAssertEqual(written(seconds), seconds.description)
        }
    }

    func testOtherValuesAreWrittenAsDescriptionWritesOrLeftToIt() {
        var rng = SystemRandomNumberGenerator()
        var declined = 0
        for _ in 0..<200_000 {
            let seconds = Double.random(in: 0.5...9.5e9, using: &rng)
            if let text = written(seconds) {
                XCTAssertEqual(text, seconds.description)
            } else {
                declined += 1
            }
        }
        XCTAssertGreaterThan(declined, 10_000, "most full-precision values need more than six decimals")
        // Past 8.5×10⁹ s (2³³ s: a Double coarser than a microsecond) it is left to `description`.
        XCTAssertEqual(written(8_999_999_999.999999) ?? "declined", "declined")
        for seconds in [0.999, -5.5, 9e9 + 0.5, 1e15 + 0.5, .nan, .infinity] {
            XCTAssertNil(written(seconds), "\(seconds)")
        }
    }

    func testNowIsToTheMicrosecondAndReadsBackExactly() throws {
        for _ in 0..<1000 {
            let now = Date.nowToTheMicrosecond()
            let seconds = now.timeIntervalSince1970
            XCTAssertEqual((seconds * 1_000_000).rounded() / 1_000_000, seconds)
            XCTAssertLessThan(abs(seconds - Date().timeIntervalSince1970), 1)
            let text = try XCTUnwrap(written(seconds) ?? (seconds == seconds.rounded() ? seconds.description : nil))
            XCTAssertEqual(Double(text), seconds)
        }
    }
}
