import HaulCore
import HaulStore
import XCTest

@testable import haul

/// `haul add -i` files: plain URL lists as `wget -i` reads them, and aria2's input files with
/// indented option lines.
final class InputFileTests: XCTestCase {
    func urls(_ text: String) throws -> [String] { try InputFile(parsing: text).entries.map(\.url) }

    func testPlainListsAreTheTrimmedNonCommentLines() throws {
        XCTAssertEqual(try urls("  http://h/a  \n#c\n\n\thttp://h/b\t\r\n"), ["http://h/a", "http://h/b"])
        XCTAssertEqual(try urls("a\u{2028}b\u{85}c\r\n # d\u{0B}e\u{0C}f"), ["a", "b", "c", "e", "f"])
        XCTAssertEqual(try urls("\u{A0}x\u{A0}\n"), ["x"], "a no-break space is whitespace")
        XCTAssertEqual(try urls("\n \n\r\n"), [])
        XCTAssertEqual(try urls(""), [])
        XCTAssertEqual(
            try urls("http://h/a?x=1\n  http://h/b?y=2\n"), ["http://h/a?x=1", "http://h/b?y=2"],
            "an indented URL with '=' in its query is a URL, not an option")
    }

    func testAria2OptionLinesBelongToTheURLAboveThem() throws {
        let file = try InputFile(
            parsing: """
                # from aria2
                http://h/a.iso
                  dir=/tmp/isos
                  out=a copy.iso
                \theader=Referer: http://h/
                  header=X-Token: a=b
                  checksum=sha-256=abc

                http://h/b.iso\thttp://mirror/b.iso
                 split=4
                """)
        XCTAssertEqual(file.entries.count, 2)
        let a = file.entries[0]
        XCTAssertEqual(a.url, "http://h/a.iso")
        XCTAssertEqual(a.line, 2)
        XCTAssertEqual(a.options.map(\.name), ["dir", "out", "header", "header", "checksum"])
        XCTAssertEqual(a.value("out")?.value, "a copy.iso")
        XCTAssertEqual(a.options.filter { $0.name == "header" }.map(\.value), ["Referer: http://h/", "X-Token: a=b"])
        XCTAssertEqual(a.value("checksum")?.value, "sha-256=abc", "the value is everything after the first '='")
        XCTAssertEqual(a.value("checksum")?.line, 7)
        let b = file.entries[1]
        XCTAssertEqual(b.url, "http://h/b.iso")
        XCTAssertEqual(b.mirrors, ["http://mirror/b.iso"])
        XCTAssertEqual(b.value("split")?.value, "4")
        XCTAssertNil(b.value("dir"))
    }

    func testAnOptionBeforeAnyURLIsNamed() {
        XCTAssertThrowsError(try InputFile(parsing: "  dir=/tmp\nhttp://h/a\n")) { error in
            XCTAssertEqual((error as? InputError)?.message, "line 1 is an option (dir=) before any URL")
        }
    }
}
