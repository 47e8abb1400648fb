import HaulTestSupport
import XCTest

@testable import HaulCore

/// Many generated Content-Disposition headers and URLs: whatever comes in, the name that
/// comes out is safe to create in the destination and to print.
final class NamingFuzzTests: XCTestCase {
    static let pieces = [
        "attachment", "inline", ";", " ", "filename=", "filename*=", "UTF-8''", "iso-8859-1'en'", "\"", "\\", "/", "..",
        ".",
        "%2F", "%2E%2E", "%00", "%1B", "%5B", "%07", "%FF", "%E6%97%A5", "%F0%9F%91%8D", "\u{1B}[31m",
        "\u{1B}]0;t\u{07}",
        "\u{0}", "\u{7F}", "\u{9B}", "\u{202E}", "日本", "👍🏽", "a", "name", ".txt", ".tar.gz", "-rf", "~",
        "C:\\", "\r\n",
        "\t",
        String(repeating: "x", count: 300), String(repeating: "語", count: 100),
    ]

    func testGeneratedNamesAreAlwaysSafe() {
        var rng = SeededGenerator.fromEnvironment("NamingFuzzTests")
        let count = 20_000
        for _ in 0..<count {
            let header = (0..<Int.random(in: 1...12, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }
                .joined()
            let path = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }
                .joined()
            let url =
                "https://example.org/"
                + (path.addingPercentEncoding(
                    withAllowedCharacters: .urlPathAllowed.union(CharacterSet(charactersIn: "%"))) ?? "")
            let name = FileNaming.suggestedName(contentDisposition: header, url: url)
            XCTAssertFalse(name.isEmpty)
            XCTAssertFalse(name.contains("/"), name.debugDescription)
            XCTAssertFalse(name.contains("\\"), name.debugDescription)
            XCTAssertFalse(name == "." || name == "..")
            XCTAssertFalse(name.hasPrefix(".") || name.hasPrefix("-"), name.debugDescription)
            XCTAssertLessThanOrEqual(name.utf8.count, FileNameSanitizer.maximumBytes)
            XCTAssertFalse(name.unicodeScalars.contains { TerminalText.isUnsafe($0) }, name.debugDescription)
            XCTAssertEqual(TerminalText.sanitize(name), name, "already terminal-safe")
        }
        Figures.record(
            "Content-Disposition and URL names (fuzz)", "\(count) generated headers and URLs",
            "every name safe: no separators, controls or escapes, ≤ 240 bytes")
    }

    /// The byte-level way for plain names must give exactly what the full way gives.
    func testTheQuickWaysAgreeWithTheFullWays() {
        var rng = SeededGenerator.fromEnvironment("NamingFuzzTests.quick")
        let namePieces = [
            "a", "f1.bin", ".", "-", "/", "\\", " ", "~", "!$&'()*+,;=:@", "\u{7F}", "\u{1}", "日",
            String(repeating: "x", count: 120),
        ]
        var plainNames = 0
        for _ in 0..<20_000 {
            let name = (0..<Int.random(in: 0...5, using: &rng)).map { _ in namePieces.randomElement(using: &rng)! }
                .joined()
            if FileNameSanitizer.isClean(name) { plainNames += 1 }
            XCTAssertEqual(
                FileNameSanitizer.sanitize(name), FileNameSanitizer.sanitizeInFull(name), name.debugDescription)
        }
        XCTAssertGreaterThan(plainNames, 2_000, "plain names were generated")
    }
}
