import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulStore

/// `ExactDecimal` must give the very `Double` that `Double(String)` (strtod) gives, bit for bit.
final class ExactDecimalTests: XCTestCase {
    private func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { ExactDecimal.parse($0) }
    }

    private func assertSameAsStrtod(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let fast = parse(text) else { return XCTFail("\(text) not read", file: file, line: line) }
        let slow = Double(text)!
        XCTAssertEqual(
            fast.bitPattern, slow.bitPattern, "\(text): \(fast) against strtod's \(slow)", file: file, line: line)
    }

    func testDatesAsTheStateFileWritesThemReadBackExactly() {
        var rng = SeededGenerator(seed: 6)
        for _ in 0..<20_000 {
            let date = Double.random(in: 0...4_000_000_000, using: &rng)
            assertSameAsStrtod(date.description)
            XCTAssertEqual(parse(date.description), date, "a written date reads back as itself")
        }
    }

    func testRandomDigitsAtEveryPointPosition() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...19, using: &rng)
            var digits = (0..<count).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            let point = Int.random(in: 0...count, using: &rng)
            if point > 0, point < count { digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point)) }
            assertSameAsStrtod(Bool.random(using: &rng) ? "-" + digits : digits)
        }
    }

    func testTiesRoundToEvenAndZeroKeepsItsSign() {
        assertSameAsStrtod("9007199254740993") // 2^53 + 1: a tie, down to even
        assertSameAsStrtod("9007199254740995") // up to even
        assertSameAsStrtod("9007199254740993.0")
        assertSameAsStrtod("900719925474099.35")
        assertSameAsStrtod("0.1")
        assertSameAsStrtod("0.000000000000000001")
        assertSameAsStrtod("9999999999999999999")
        assertSameAsStrtod("1.999999999999999999")
        XCTAssertEqual(parse("-0")?.sign, .minus)
        XCTAssertEqual(parse("-0.000")?.sign, .minus)
        XCTAssertEqual(parse("0.0")?.sign, .plus)
    }

    func testOtherFormsAreLeftToStrtod() {
        for text in [
            "", "-", "1.", ".5", "-.5", "1e5", "1E-3", "+1", "--1", "1.2.3", "12345678901234567890",
            "1.2345678901234567890", "0x10", "1 ",
        ] {
            XCTAssertNil(parse(text), text)
        }
    }
}
