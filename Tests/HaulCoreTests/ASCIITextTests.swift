import XCTest

@testable import HaulCore

/// The byte paths for ASCII text against the `Character` way they stand in for.
final class ASCIITextTests: XCTestCase {
    /// Every ASCII byte: the whitespace and newline tests agree with `Character`'s.
    func testByteTestsAgreeWithCharacter() {
        for byte in UInt8(0)..<0x80 {
            let character = Character(Unicode.Scalar(byte))
            XCTAssertEqual(ASCIIText.isWhitespace(byte), character.isWhitespace, "\(byte)")
            XCTAssertEqual(ASCIIText.isNewline(byte), character.isNewline, "\(byte)")
        }
    }

    private func samples() -> [String] {
        let alphabet = [
            "a", "#", " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1F}", "\u{0}", "h://x/y", "é",
            "\u{85}", "\u{2028}", "\u{A0}",
        ]
        var rng = SystemRandomNumberGenerator()
        var samples = ["", "\n", "#", " # x", "a\r\n\r\nb", "  http://h/a  \n#c\n\n\thttp://h/b\t\r\n"]
        for _ in 0..<4000 {
            samples.append(
                (0..<Int.random(in: 0...10, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined())
        }
        return samples + samples.map { $0.filter(\.isASCII) }
    }

    func testURLListLinesAgreeWithSplittingByCharacter() {
        for sample in samples() {
            let expected: [String] = sample.split(whereSeparator: \.isNewline).compactMap { line in
                let trimmed = String(line).trimmingCharacters(where: \.isWhitespace)
                return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : trimmed
            }
            XCTAssertEqual(sample.urlListLines(), expected, sample.debugDescription)
        }
    }

    func testTrimmingWhitespaceAgreesWithCharacter() {
        for sample in samples() {
            XCTAssertEqual(
                sample.trimmingWhitespace(), sample.trimmingCharacters(where: \.isWhitespace), sample.debugDescription)
        }
    }
}
