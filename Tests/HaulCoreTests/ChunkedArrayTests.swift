import Foundation
import XCTest

@testable import HaulCore

/// A chunked array behaves as an array does, and a copy shares every chunk it does not write.
final class ChunkedArrayTests: XCTestCase {
    private let size = ChunkedArray<Int>.chunkCapacity

    func testAppendingAcrossChunksKeepsOrderAndCount() {
        var chunked = ChunkedArray<Int>()
        for i in 0..<(size * 3 + 5) { chunked.append(i) }
        XCTAssertEqual(chunked.count, size * 3 + 5)
        XCTAssertEqual(Array(chunked), Array(0..<(size * 3 + 5)))
        XCTAssertEqual(chunked[size], size)
        XCTAssertEqual(chunked.last, size * 3 + 4)
    }

    func testWritingACopyLeavesTheOriginalAsItWas() {
        let original = ChunkedArray(0..<(size * 3))
        var copy = original
        XCTAssertEqual(copy.sharedChunks(with: original), 3)
        copy[size + 1] = -1
        XCTAssertEqual(copy.sharedChunks(with: original), 2, "only the chunk written is copied")
        XCTAssertEqual(original[size + 1], size + 1)
        XCTAssertEqual(copy[size + 1], -1)
        XCTAssertEqual(Array(original), Array(0..<(size * 3)))
    }

    func testInsertsAndRemovesAnywhereMatchAnArray() {
        var random = SplitMix64(seed: 0xC4A2)
        var chunked = ChunkedArray<Int>()
        var model: [Int] = []
        for step in 0..<4000 {
            let roll = random.next() % 10
            if roll < 5 || model.isEmpty {
                chunked.append(step)
                model.append(step)
            } else if roll < 7 {
                let at = Int(random.next() % UInt64(model.count + 1))
                chunked.insert(step, at: at)
                model.insert(step, at: at)
            } else if roll < 9 {
                let at = Int(random.next() % UInt64(model.count))
                XCTAssertEqual(chunked.remove(at: at), model.remove(at: at))
            } else {
                chunked.removeAll { $0 % 7 == 0 }
                model.removeAll { $0 % 7 == 0 }
            }
            XCTAssertEqual(chunked.count, model.count)
        }
        XCTAssertEqual(Array(chunked), model)
        XCTAssertEqual(chunked.firstIndex(of: model[model.count / 2]), model.count / 2)
    }

    func testItIsCodedAsAPlainArray() throws {
        let chunked: ChunkedArray = [3, 1, 2]
        let bytes = try JSONEncoder().encode(chunked)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "[3,1,2]")
        XCTAssertEqual(try JSONDecoder().decode(ChunkedArray<Int>.self, from: bytes), chunked)
        XCTAssertNotEqual(chunked, [3, 1])
    }
}
