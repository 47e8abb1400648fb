import Foundation
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// Moving a finished `.part` to its name never replaces a file that took the name meanwhile.
final class FinalPlacementTests: XCTestCase {
    func testMovesToAFreeNameAndNeverOverAnExistingFile() throws {
        let dir = TestDirectory("placement")
        let part = dir.path + "/a.bin.part"
        try Data("new".utf8).write(to: URL(fileURLWithPath: part))
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: dir.path + "/a.bin"))

        guard case .nameTaken = FinalPlacement.move(part, to: dir.path + "/a.bin") else {
            return XCTFail("replaced an existing file")
        }
        XCTAssertEqual(TestFiles.contents(dir.path + "/a.bin"), Data("someone else's".utf8))
        XCTAssertEqual(TestFiles.contents(part), Data("new".utf8), "the .part is kept for the next name")

        guard case .placed = FinalPlacement.move(part, to: dir.path + "/a (1).bin") else {
            return XCTFail("not placed")
        }
        XCTAssertEqual(TestFiles.contents(dir.path + "/a (1).bin"), Data("new".utf8))
        XCTAssertNil(TestFiles.contents(part))
    }

    func testADanglingSymlinkAtTheNameCountsAsTaken() throws {
        let dir = TestDirectory("placement")
        let part = dir.path + "/b.bin.part"
        try Data("new".utf8).write(to: URL(fileURLWithPath: part))
        XCTAssertEqual(symlink(dir.path + "/elsewhere", dir.path + "/b.bin"), 0)

        guard case .nameTaken = FinalPlacement.move(part, to: dir.path + "/b.bin") else {
            return XCTFail("wrote over a symlink")
        }
        XCTAssertNil(TestFiles.contents(dir.path + "/elsewhere"), "nothing written through the link")
    }
}
