import HaulCore
import XCTest

final class PositionIndexTests: XCTestCase {
    func testHexIdsAndOtherIdsAreFoundSetMovedAndRemoved() {
        var index = PositionIndex()
        let hex = DownloadID(rawValue: "0a1b2c")
        let shorter = DownloadID(rawValue: "a1b2c") // the same digits but one: a different id
        let text = DownloadID(rawValue: "Hand-Edited")
        let long = DownloadID(rawValue: "0123456789abcdef") // too long to pack

        index[hex] = 0
        index[shorter] = 1
        index[text] = 2
        index[long] = 3
        XCTAssertEqual(index.count, 4)
        XCTAssertEqual([hex, shorter, text, long].map { index[$0] }, [0, 1, 2, 3])
        XCTAssertNil(index[DownloadID(rawValue: "hand-edited")])

        XCTAssertEqual(index.updateValue(7, forKey: hex), 0)
        XCTAssertEqual(index.updateValue(8, forKey: text), 2)
        XCTAssertEqual(index[hex], 7)
        XCTAssertEqual(index[text], 8)

        index[shorter] = nil
        XCTAssertEqual(index.updateValue(nil, forKey: long), 3)
        XCTAssertNil(index[shorter])
        XCTAssertNil(index[long])
        XCTAssertEqual(index.count, 2)

        index.removeAll(keepingCapacity: true)
        XCTAssertEqual(index.count, 0)
        XCTAssertNil(index[hex])
    }

    func testEveryIdHaulMakesPacksToItsOwnKey() throws {
        var rng = SplitMix64(seed: 7)
        var seen: [UInt32: DownloadID] = [:]
        for _ in 0..<20_000 {
            let id = DownloadID.generate(avoiding: { _ in false }, using: &rng)
            let key = try XCTUnwrap(id.packedHex)
            if let other = seen.updateValue(id, forKey: key) { XCTAssertEqual(other, id) }
        }
        XCTAssertNil(DownloadID(rawValue: "ABCDEF").packedHex) // upper case is not what haul makes
    }
}
