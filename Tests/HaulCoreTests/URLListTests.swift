import XCTest

@testable import HaulCore

/// A URL list's lines, as `haul add -i` reads them: split at any newline, trimmed, blank and
/// `#` lines left out.
final class URLListTests: XCTestCase {
    func testURLListLinesAreTheTrimmedNonCommentLines() {
        XCTAssertEqual("  http://h/a  \n#c\n\n\thttp://h/b\t\r\n".urlListLines(), ["http://h/a", "http://h/b"])
        XCTAssertEqual("a\u{2028}b\u{85}c\r\n # d\u{0B}e\u{0C}f".urlListLines(), ["a", "b", "c", "e", "f"])
        XCTAssertEqual("\u{A0}x\u{A0}\n".urlListLines(), ["x"], "a no-break space is whitespace")
        XCTAssertEqual("\n \n\r\n".urlListLines(), [])
        XCTAssertEqual("".urlListLines(), [])
    }
}
