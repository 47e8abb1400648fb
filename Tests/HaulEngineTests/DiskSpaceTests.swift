import Foundation
import XCTest
@testable import HaulEngine

/// What one `statfs` tells a transfer about the file system it writes into.
final class DiskSpaceTests: XCTestCase {
    func testTmpfsIsInMemoryAndTheRootFileSystemIsNot() throws {
        let shm = try XCTUnwrap(DiskSpace.Volume(holding: "/dev/shm"))
        XCTAssertTrue(shm.inMemory)
        XCTAssertGreaterThan(shm.available, 0)
        XCTAssertFalse(try XCTUnwrap(DiskSpace.Volume(holding: "/")).inMemory)
    }

    func testAvailableSpaceMatchesStatvfs() throws {
        var info = statvfs()
        XCTAssertEqual(statvfs("/dev/shm", &info), 0)
        let expected = Int64(info.f_bavail) * Int64(info.f_frsize)
        let volume = try XCTUnwrap(DiskSpace.Volume(holding: "/dev/shm"))
        // Another process may write meanwhile: within 1 MiB.
        XCTAssertLessThan(abs(volume.available - expected), 1 << 20)
        XCTAssertNil(volume.shortfall(writing: volume.available))
        XCTAssertEqual(volume.shortfall(writing: volume.available + 10), 10)
    }

    func testNoVolumeForAMissingPath() {
        XCTAssertNil(DiskSpace.Volume(holding: "/nonexistent-\(UUID().uuidString)"))
    }
}
