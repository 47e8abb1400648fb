import Foundation
import XCTest

@testable import haul

final class CommandWordsTests: XCTestCase {
    func testQuotesAndBackslashesGroupWordsAndNothingElseIsInterpreted() throws {
        XCTAssertEqual(try CommandWords.split("mpv --fs"), ["mpv", "--fs"])
        XCTAssertEqual(
            try CommandWords.split("  notify 'two words'  \"and \\\"this\\\"\" a\\ b "),
            ["notify", "two words", "and \"this\"", "a b"])
        XCTAssertEqual(
            try CommandWords.split("echo $(rm -rf ~) `x` *; |"), ["echo", "$(rm", "-rf", "~)", "`x`", "*;", "|"])
        XCTAssertEqual(try CommandWords.split("cmd ''"), ["cmd", ""])
        XCTAssertThrowsError(try CommandWords.split("cmd 'open"))
        XCTAssertThrowsError(try CommandWords.split("   "))
    }
}
