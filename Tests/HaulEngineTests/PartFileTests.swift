import Foundation
import HaulCore
import HaulTestSupport
import NIOCore
import Synchronization
import XCTest

@testable import HaulEngine

/// Writing into a `.part`: a buffer larger than one `pwrite` lands whole, at its offset, whether
/// the writes ask to drop their pages behind them or not, and where the file system refuses that.
final class PartFileTests: XCTestCase {
    private let bytes = (0..<(PartFile.Writer.maxWrite * 3 + 12_345)).map {
        UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9)
    }

    private func write(into path: String, dropBehind: Bool) throws -> PartFile.Writer {
        let part = try PartFile(path: path, truncate: true)
        defer { part.close() }
        let writer = part.writer(dropBehind: dropBehind)
        try writer.write(ByteBuffer(bytes: [1, 2, 3]), at: 0)
        try writer.write(ByteBuffer(bytes: bytes), at: 3)
        return writer
    }

    func testABufferLargerThanOneWriteLandsWholeAtItsOffset() throws {
        let dir = TestDirectory("partfile")
        for dropBehind in [false, true] {
            let path = dir.path + "/big-\(dropBehind).bin.part"
            _ = try write(into: path, dropBehind: dropBehind)
            XCTAssertEqual(TestFiles.contents(path), Data([1, 2, 3] + bytes), "dropBehind: \(dropBehind)")
        }
    }

    /// A `.part` written out of order has holes: only the bytes before the first one count
    /// when it is resumed without a map.
    func testTheContiguousSizeEndsAtTheFirstHole() throws {
        for place in ["/tmp", "/dev/shm"] {
            let dir = TestDirectory("partfile", in: place)
            let path = dir.path + "/holes.bin.part"
            let part = try PartFile(path: path, truncate: true)
            let mib = 1 << 20
            var buffer = ByteBufferAllocator().buffer(capacity: mib)
            buffer.writeBytes([UInt8](repeating: 7, count: mib))
            try part.writer(dropBehind: false).write(buffer, at: 0)
            try part.writer(dropBehind: false).write(buffer, at: Int64(4 * mib))
            part.close()
            XCTAssertEqual(PartFile.size(at: path), Int64(5 * mib), place)
            XCTAssertEqual(PartFile.contiguousSize(at: path), Int64(mib), place)
            XCTAssertNil(PartFile.contiguousSize(at: dir.path + "/none"))
        }
    }

    /// tmpfs has no RWF_DONTCACHE (Linux 6.18): the first write is refused, the writer falls
    /// back to plain `pwrite` for it and every later one.
    func testAFileSystemWithoutDropBehindGetsPlainWrites() throws {
        let dir = TestDirectory("partfile", in: "/dev/shm")
        let path = dir.path + "/big.bin.part"

        let writer = try write(into: path, dropBehind: true)

        XCTAssertEqual(TestFiles.contents(path), Data([1, 2, 3] + bytes))
        XCTAssertEqual(writer.dropBehind?.wanted.load(ordering: .relaxed), false)
    }

    /// A new name's `.part` is created exclusively: one already there is reported, not opened.
    func testAnExclusiveCreateLeavesAnExistingFileAlone() throws {
        let dir = TestDirectory("partfile")
        let path = dir.path + "/taken.bin.part"
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))

        XCTAssertThrowsError(try PartFile(path: path, truncate: true, exclusive: true)) { error in
            XCTAssertEqual((error as? FileError)?.isTaken, true)
        }
        XCTAssertEqual(TestFiles.contents(path), Data("theirs".utf8))
        let fresh = try PartFile(path: dir.path + "/free.bin.part", truncate: true, exclusive: true)
        fresh.close()
        XCTAssertEqual(TestFiles.contents(dir.path + "/free.bin.part"), Data())
    }

    /// A resumed download opens its `.part` again: a symbolic link put in its place is not
    /// followed, and what it points at is left as it was.
    func testALinkInThePartsPlaceIsNotWrittenThrough() throws {
        let dir = TestDirectory("partfile")
        let victim = dir.path + "/victim.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        let link = dir.path + "/file.bin.part"
        XCTAssertEqual(symlink(victim, link), 0)

        for truncate in [false, true] {
            XCTAssertThrowsError(try PartFile(path: link, truncate: truncate)) { error in
                XCTAssertEqual((error as? FileError)?.code, ELOOP)
                XCTAssertTrue("\(error)".contains("it is a symbolic link"), "\(error)")
            }
        }
        XCTAssertEqual(TestFiles.contents(victim), Data("keep".utf8))
    }
}
