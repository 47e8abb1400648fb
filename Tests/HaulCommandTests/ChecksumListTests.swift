import Foundation
import HaulCore
import XCTest

@testable import haul

/// `--checksum-file`: the lines of the files sha256sum and its family write.
final class ChecksumListTests: XCTestCase {
    let hex256 = String(repeating: "ab", count: 32)

    func testChecksumFilesInEveryFormSha256sumWrites() throws {
        let md5 = String(repeating: "1", count: 32)
        let sha512 = String(repeating: "2", count: 128)
        let list = try ChecksumList(
            parsing: """
                # made by sha256sum and friends
                \(hex256)  ubuntu.iso
                \(md5) *binary mode.bin
                \\\(hex256)  back\\\\slash\\nnewline.txt
                SHA512 (tagged (1).tar) = \(sha512)
                \(hex256)  ./images/deep.img\r

                """)
        XCTAssertEqual(list.entries.count, 5)
        XCTAssertEqual(list.checksum(for: "ubuntu.iso"), try Checksum(.sha256, hex: hex256))
        XCTAssertEqual(list.checksum(for: "binary mode.bin")?.algorithm, .md5, "told by the digest's length")
        XCTAssertEqual(list.checksum(for: "back\\slash\nnewline.txt")?.algorithm, .sha256, "escaped names")
        XCTAssertEqual(list.checksum(for: "tagged (1).tar")?.hex, sha512)
        XCTAssertEqual(list.checksum(for: "deep.img")?.algorithm, .sha256, "matched by the last part of a path")
        XCTAssertNil(list.checksum(for: "missing.iso"))
        XCTAssertThrowsError(try ChecksumList(parsing: "\(hex256)  a\nnot a line\n")) { error in
            XCTAssertEqual(
                (error as? InputError)?.message, "line 2 of the checksum file is not 'HEX  NAME' as sha256sum writes it"
            )
        }
        XCTAssertThrowsError(try ChecksumList(parsing: "# nothing\n"))
    }
}
