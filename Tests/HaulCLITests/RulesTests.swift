import Foundation
import HaulTestSupport
import XCTest

/// `haul rules`: where downloads added without -d go.
final class RulesTests: NginxCLITestCase {
    func testRulesChooseTheFolderOfDownloadsAddedWithoutOne() async throws {
        try TestFiles.random(www + "/disk.iso", size: 20_000)
        try TestFiles.random(www + "/clip.webm", size: 20_000)
        try TestFiles.random(www + "/notes.txt", size: 20_000)
        var result = try await haul("rules")
        XCTAssertTrue(result.stdout.contains("no folder rules"), result.stdout)
        result = try await haul("rules", "add", "*.iso,*.img", home + "/Images")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await haul("rules", "add", "video", "~/Videos")
        XCTAssertEqual(result.stdout, "1. *.iso,*.img → ~/Images\n2. video → ~/Videos\n")
        result = try await haul("rules", "add", "host:127.0.0.1", "/nowhere", "--first")
        result = try await haul("rules", "rm", "1")
        XCTAssertFalse(result.stdout.contains("nowhere"), result.stdout)
        result = try await haul("rules", "add", "videos", "relative")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("must be absolute or start with ~/"), result.stderr)

        result = try await haul("rules", "test", "ubuntu.ISO")
        XCTAssertEqual(result.stdout, "ubuntu.ISO → \(home)/Images (rule 1)\n")
        result = try await haul("rules", "test", nginx.url("clip.webm"))
        XCTAssertEqual(result.stdout, "clip.webm → \(home)/Videos (rule 2)\n")
        result = try await haul("rules", "test", "notes")
        XCTAssertTrue(result.stdout.hasSuffix("(no rule matches)\n"), result.stdout)

        for name in ["disk.iso", "clip.webm", "notes.txt"] {
            result = try await haul("add", nginx.url(name))
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        // With -d the rules do not apply.
        result = try await haul("add", "-d", downloads + "/given", "-o", "given.iso", nginx.url("disk.iso"))
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try await haul("run")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(sameFile(www + "/disk.iso", home + "/Images/disk.iso"))
        XCTAssertTrue(sameFile(www + "/clip.webm", home + "/Videos/clip.webm"))
        XCTAssertTrue(sameFile(www + "/notes.txt", downloads + "/notes.txt"))
        XCTAssertTrue(sameFile(www + "/disk.iso", downloads + "/given/given.iso"))
        let file = try String(contentsOfFile: home + "/.config/haul/folders", encoding: .utf8)
        XCTAssertTrue(file.contains("*.iso,*.img = ~/Images\nvideo = ~/Videos\n"), file)
    }
}
