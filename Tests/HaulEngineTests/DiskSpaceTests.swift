import Foundation
import HaulTestSupport
import Synchronization
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

    /// The room a file or a folder of files takes: blocks written, not sizes (a hole takes none).
    func testAllocatedBytesCountWrittenBlocksOfEveryFileBelowAFolder() throws {
        let dir = TestDirectory()
        try FileManager.default.createDirectory(atPath: dir.path + "/set/sub", withIntermediateDirectories: true)
        try TestFiles.random(dir.path + "/set/a.bin", size: 64 << 10)
        try TestFiles.random(dir.path + "/set/sub/b.bin", size: 128 << 10)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.path + "/set/sub/c.bin", contents: nil))
        let sparse = try XCTUnwrap(FileHandle(forWritingAtPath: dir.path + "/set/sub/c.bin"))
        try sparse.truncate(atOffset: 1 << 20)
        try sparse.close()
        let total = DiskSpace.allocatedBytes(at: dir.path + "/set")
        XCTAssertGreaterThanOrEqual(total, 192 << 10)
        XCTAssertLessThan(total, 1 << 20, "a hole takes no room")
        XCTAssertEqual(DiskSpace.allocatedBytes(at: dir.path + "/missing"), 0)
    }

    func testNoVolumeForAMissingPath() {
        XCTAssertNil(DiskSpace.Volume(holding: "/nonexistent-\(UUID().uuidString)"))
    }

    // MARK: VolumeCache

    /// A `statfs` stand-in that counts its calls, and a clock the test moves.
    private final class FakeFileSystem: Sendable {
        let reads = Mutex(0)
        let available = Mutex<Int64>(1000)
        let clock = TestClock()

        func cache() -> DiskSpace.VolumeCache {
            DiskSpace.VolumeCache(
                maxAge: .milliseconds(500),
                read: { path in
                    self.reads.withLock { $0 += 1 }
                    return path == "/missing"
                        ? nil : DiskSpace.Volume(available: self.available.withLock { $0 }, inMemory: path == "/shm")
                },
                clock: clock
            )
        }
    }

    func testAReadingServesWhileItIsRecentAndCountsWhatTransfersWereTold() throws {
        let fs = FakeFileSystem()
        let cache = fs.cache()
        XCTAssertEqual(cache.volume(holding: "/d", writing: 100)?.available, 1000)
        XCTAssertEqual(cache.volume(holding: "/d", writing: 100)?.available, 900)
        XCTAssertEqual(cache.volume(holding: "/d", writing: nil)?.available, 800)
        XCTAssertEqual(fs.reads.withLock { $0 }, 1)
        // Each directory has its own reading.
        XCTAssertEqual(cache.volume(holding: "/shm", writing: 1)?.inMemory, true)
        XCTAssertEqual(fs.reads.withLock { $0 }, 2)
    }

    func testAnOldReadingIsReadAgain() throws {
        let fs = FakeFileSystem()
        let cache = fs.cache()
        _ = cache.volume(holding: "/d", writing: 100)
        fs.available.withLock { $0 = 50 }
        fs.clock.advance(by: .milliseconds(600))
        let volume = try XCTUnwrap(cache.volume(holding: "/d", writing: 100))
        XCTAssertEqual(fs.reads.withLock { $0 }, 2)
        XCTAssertEqual(volume.shortfall(writing: 100), 50)
    }

    /// Past half of the space a reading found, every file is checked against a new one: a
    /// nearly full disk is read for each.
    func testANearlyUsedUpReadingIsReadAgain() throws {
        let fs = FakeFileSystem()
        let cache = fs.cache()
        _ = cache.volume(holding: "/d", writing: 400)
        XCTAssertEqual(fs.reads.withLock { $0 }, 1)
        fs.available.withLock { $0 = 600 }
        XCTAssertEqual(cache.volume(holding: "/d", writing: 200)?.available, 600)
        XCTAssertEqual(fs.reads.withLock { $0 }, 2)
        XCTAssertEqual(cache.volume(holding: "/d", writing: 400)?.available, 600)
        XCTAssertEqual(fs.reads.withLock { $0 }, 3)
    }

    /// A size no disk has (a server can claim up to `Int64.max`) is checked against a new
    /// reading each time, and nothing overflows.
    func testAnImpossibleSizeIsReadAgainWithoutOverflow() throws {
        let fs = FakeFileSystem()
        let cache = fs.cache()
        XCTAssertEqual(cache.volume(holding: "/d", writing: .max)?.shortfall(writing: .max), .max - 1000)
        XCTAssertEqual(cache.volume(holding: "/d", writing: .max)?.available, 1000)
        XCTAssertEqual(cache.volume(holding: "/d", writing: 10)?.available, 1000)
        XCTAssertEqual(fs.reads.withLock { $0 }, 3)
    }

    func testAFailedReadingIsNotKept() {
        let fs = FakeFileSystem()
        let cache = fs.cache()
        XCTAssertNil(cache.volume(holding: "/missing", writing: 1))
        XCTAssertNil(cache.volume(holding: "/missing", writing: 1))
        XCTAssertEqual(fs.reads.withLock { $0 }, 2)
    }
}
