import Foundation
import HaulTestSupport
import NIOCore
import XCTest
@testable import HaulEngine

/// Writing into a `.part`: a buffer larger than one `pwrite` lands whole, at its offset.
final class PartFileTests: XCTestCase {
    func testABufferLargerThanOneWriteLandsWholeAtItsOffset() throws {
        let dir = TestDirectory("partfile")
        let path = dir.path + "/big.bin.part"
        let bytes = (0..<(PartFile.Writer.maxWrite * 3 + 12_345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let part = try PartFile(path: path, truncate: true)
        try part.writer.write(ByteBuffer(bytes: [1, 2, 3]), at: 0)
        try part.writer.write(ByteBuffer(bytes: bytes), at: 3)
        part.close()

        XCTAssertEqual(TestFiles.contents(path), Data([1, 2, 3] + bytes))
    }
}
