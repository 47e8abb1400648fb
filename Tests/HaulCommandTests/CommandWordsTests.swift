import Foundation
import HaulCore
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

    func testTheUIsFilesCommandActsOnTheSelectedTorrent() {
        let id = DownloadID(rawValue: "a1b2c3")
        XCTAssertEqual(CommandLineRunner.withSelection(["files", "1,3-5"], id), ["files", "a1b2c3", "1,3-5"])
        XCTAssertEqual(CommandLineRunner.withSelection(["files"], id), ["files", "a1b2c3"])
        XCTAssertEqual(CommandLineRunner.withSelection(["files", "ffee01", "2"], id), ["files", "ffee01", "2"])
        XCTAssertEqual(CommandLineRunner.withSelection(["files", "ffee01"], id), ["files", "ffee01"])
    }
}
