import Foundation
import HaulCore
import XCTest

@testable import HaulStore

/// The byte writers the state file and listings use, against Foundation's `JSONEncoder`.
final class JSONBytesTests: XCTestCase {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// Strings of every length around the eight-byte steps the escape check takes, with the
    /// characters that need escaping at every position, read as `JSONEncoder` writes them.
    func testQuotedStringsAreWhatJSONEncoderWrites() throws {
        var random = SplitMix64(seed: 0x4A50_4E00)
        let plain: [Character] = ["a", "Z", "0", " ", "/", "~", "é", "日", "🙂", "\u{7F}", "\u{80}"]
        let special: [Character] = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) } + ["\"", "\\"]
        for round in 0..<20_000 {
            let length = round % 40
            var text = String((0..<length).map { _ in plain.randomElement(using: &random)! })
            if round % 3 != 0, length > 0 {
                let offset = Int.random(in: 0..<length, using: &random)
                let index = text.index(text.startIndex, offsetBy: offset)
                text.insert(special.randomElement(using: &random)!, at: index)
            }
            var out: [UInt8] = []
            JSONBytes.quoted(text, into: &out)
            XCTAssertEqual(
                String(decoding: out, as: UTF8.self), String(decoding: try encoder.encode(text), as: UTF8.self),
                "\(Array(text.utf8))")
            XCTAssertLessThanOrEqual(out.count, JSONBytes.quotedBound(text))
        }
    }

    func testNumbersAtTheirLongestFitTheBound() {
        for value in [Int64.min, Int64.max, 0, -1, 9, 10, 1_000_000] {
            var out: [UInt8] = []
            JSONBytes.write(to: &out, atMost: 20) { $0.appendDecimal(value) }
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(value))
        }
        var out: [UInt8] = []
        JSONBytes.write(to: &out, atMost: 20) { $0.appendDecimal(UInt64.max) }
        XCTAssertEqual(String(decoding: out, as: UTF8.self), String(UInt64.max))
    }
}
