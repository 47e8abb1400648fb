import XCTest

@testable import HaulCore

/// Folders by kind of file and by host: the first rule that matches wins.
final class FolderRulesTests: XCTestCase {
    let rules = try! FolderRulesFile.parse(
        """
        # disk images first, then the groups
        *.iso,*.IMG = ~/Images
        host:*.example.org = /srv/work
        video = ~/Videos
        disk image = /data/vm
        报告*.pdf = ~/报告
        * = /home/u/Other
        """)

    func folder(_ name: String?, _ host: String? = nil) -> String? {
        rules.folder(name: name, host: host, home: "/home/u")
    }

    func testPatternsGroupsAndHostsInTheirOrder() {
        XCTAssertEqual(folder("debian-12.iso"), "/home/u/Images")
        XCTAssertEqual(folder("DISK.img"), "/home/u/Images", "any case")
        XCTAssertEqual(folder("vm.qcow2"), "/data/vm", "the group, since no earlier rule matches")
        XCTAssertEqual(folder("film.MKV"), "/home/u/Videos")
        // The host rule comes before the groups: a video from there goes to its folder.
        XCTAssertEqual(folder("film.mkv", "cdn.example.org"), "/srv/work")
        XCTAssertEqual(folder("film.mkv", "example.org"), "/srv/work", "*. covers the domain itself")
        XCTAssertEqual(folder("film.mkv", "example.org.evil.net"), "/home/u/Videos")
        XCTAssertEqual(folder("debian.iso", "cdn.example.org"), "/home/u/Images", "first match wins")
    }

    func testNamesWithoutExtensionsAndCJKNames() {
        XCTAssertEqual(folder("README"), "/home/u/Other", "no extension: only a glob can match")
        XCTAssertEqual(folder(".iso"), "/home/u/Images", "a glob sees the name as it is")
        XCTAssertFalse(FileGroup.diskImage.contains(".iso"), "a hidden name has no extension")
        XCTAssertEqual(folder("报告2026.pdf"), "/home/u/报告")
        XCTAssertEqual(folder("年度报告.pdf"), "/home/u/Other")
        XCTAssertEqual(folder(nil), "/home/u/Other")
        XCTAssertNil(FolderRules().folder(name: "a.iso", host: nil, home: "/h"))
    }

    func testTheFileReadsBackAndABadLineIsNamed() throws {
        XCTAssertEqual(try FolderRulesFile.parse(FolderRulesFile.text(rules)), rules)
        XCTAssertThrowsError(try FolderRulesFile.parse("video = ~/Videos\nimages -> ~/Pictures")) { error in
            XCTAssertEqual(
                (error as? InputError)?.message,
                "line 2 of the folder rules is not 'PATTERN = FOLDER': images -> ~/Pictures")
        }
        XCTAssertThrowsError(try FolderRulesFile.parse("video = Videos"), "a relative folder")
        XCTAssertTrue(Glob.matches("a*b?c", "axxbyc") && !Glob.matches("a*b?c", "abc") && Glob.matches("*", ""))
    }
}
