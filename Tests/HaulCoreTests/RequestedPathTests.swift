import HaulCore
import XCTest

/// A name asked for, as `-o` and aria2's `out` give it: a plain name or folders below the
/// download's folder, never a way out of it.
final class RequestedPathTests: XCTestCase {
    func testAPlainNameAndANameWithFolders() throws {
        XCTAssertEqual(try RequestedPath("a.iso"), try RequestedPath("a.iso"))
        XCTAssertEqual(try RequestedPath("a.iso").folders, [])
        let nested = try RequestedPath("isos/debian/a.iso")
        XCTAssertEqual(nested.folders, ["isos", "debian"])
        XCTAssertEqual(nested.name, "a.iso")
        XCTAssertEqual(nested.directory(in: "/home/me/Downloads"), "/home/me/Downloads/isos/debian")
        XCTAssertEqual(try RequestedPath("a.iso").directory(in: "/d/"), "/d/")
    }

    func testNothingLeadsOutOfTheFolderOrHidesInIt() {
        let cases: [(String, String)] = [
            ("../up.iso", "leads out of the download's folder"),
            ("isos/../../up.iso", "leads out of the download's folder"),
            ("/etc/cron.d/x", "not a plain file name"),
            ("isos//a.iso", "not a plain file name"),
            ("isos/", "not a plain file name"),
            ("./a.iso", "not a plain file name"),
            (".config/a", "not a plain file name"),
            ("isos/\u{1B}[2Ja.iso", "not a plain file name"),
            ("", "not a plain file name"),
        ]
        for (text, sentence) in cases {
            XCTAssertThrowsError(try RequestedPath(text), text) { error in
                XCTAssertTrue((error as? InputError)?.message.contains(sentence) == true, "\(text): \(error)")
            }
        }
    }
}
