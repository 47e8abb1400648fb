import Foundation
import XCTest

@testable import HaulCore
@testable import HaulUI

/// Whole screens of the views the mouse, the command line, the graphs and the log added, as
/// text, at 80x24 and at other sizes: what a user sees, character for character.
final class GoldenViewTests: XCTestCase {
    static let a = DownloadID(rawValue: "aaaaaa")
    /// The downloads of the last controller made, for the details box.
    var downloads: [Download] = []

    func controller(width: Int = 80, height: Int = 24, unicode: Bool = true) -> TUIController {
        var a = Download(id: Self.a, url: "http://h/a.iso", directory: "/dl", queueOrder: 0)
        a.fileName = "debian-12.iso"
        a.state = .downloading
        a.totalBytes = 4 << 20
        a.receivedBytes = 2 << 20
        a.connections = 4
        var b = Download(id: DownloadID(rawValue: "bbbbbb"), url: "http://h/b", directory: "/dl", queueOrder: 1)
        b.fileName = "日本語のファイル名.zip"
        b.state = .finished
        b.receivedBytes = 400
        b.totalBytes = 400
        downloads = [a, b]
        let c = TUIController(
            downloads: [a, b], width: width, height: height, defaultDirectory: "/dl", home: "/root", unicode: unicode)
        let start = Date(timeIntervalSince1970: 1_000_000)
        for (i, speed) in [1.0, 2, 4, 3].enumerated() {
            let clock = start.addingTimeInterval(Double(i))
            c.wallClock = { clock }
            c.apply(
                .progress(
                    ProgressSample(
                        id: Self.a, receivedBytes: 2 << 20, totalBytes: 4 << 20, bytesPerSecond: speed * 1_048_576,
                        etaSeconds: 2, connections: 2,
                        segments: [
                            LiveSegment(
                                Segment(start: 0, end: 2 << 20, received: 1 << 20), bytesPerSecond: speed * 524_288),
                            LiveSegment(
                                Segment(start: 2 << 20, end: 4 << 20, received: 1 << 20),
                                bytesPerSecond: speed * 524_288),
                        ])))
            _ = c.frame(now: Double(i))
        }
        return c
    }

    func screen(_ c: TUIController) -> String { lines(c).joined(separator: "\n") }

    /// The screen's rows without trailing spaces (every row is checked to be the full width).
    func lines(_ c: TUIController) -> [String] {
        (0..<c.grid.height).map { row in
            let text = c.grid.text(row: row)
            XCTAssertEqual(DisplayWidth.of(text), c.grid.width, "row \(row): \(text)")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The folder of the golden screens, next to this file.
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    /// Compares the screen with `Goldens/NAME.txt` (clock times read `hh:mm:ss`, as they depend on
    /// the time zone). `HAUL_UPDATE_GOLDENS=1 swift test --filter GoldenViewTests` writes them anew.
    func assertGolden(_ c: TUIController, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let shown = screen(c).replacingOccurrences(
            of: "[0-9]{2}:[0-9]{2}:[0-9]{2}", with: "hh:mm:ss", options: .regularExpression)
        let url = Self.goldens.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["HAUL_UPDATE_GOLDENS"] != nil {
            try? FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            XCTAssertNoThrow(try (shown + "\n").write(to: url, atomically: true, encoding: .utf8))
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return XCTFail("no golden \(name).txt; HAUL_UPDATE_GOLDENS=1 writes it", file: file, line: line)
        }
        XCTAssertEqual(shown + "\n", expected, "\(name):\n\(shown)", file: file, line: line)
    }

    /// Every view of the list at 80x24 (Unicode and ASCII) and at 120x30: the header's graph, an
    /// opened row, help (top and end), details of a download in pieces (top and scrolled), the log,
    /// the status line's recent messages and the command line.
    func testEveryViewMatchesItsGoldenAtSeveralSizes() {
        for (width, height, unicode) in [(80, 24, true), (80, 24, false), (120, 30, true)] {
            let size = "\(width)x\(height)\(unicode ? "" : "-ascii")"
            let c = controller(width: width, height: height, unicode: unicode)
            assertGolden(c, "list-" + size)
            _ = c.handle(.character("x"))
            _ = c.frame(now: 9)
            assertGolden(c, "opened-" + size)
            _ = c.handle(.character("?"))
            _ = c.frame(now: 10)
            assertGolden(c, "help-" + size)
            _ = c.handle(.character("G"))
            _ = c.frame(now: 11)
            assertGolden(c, "help-end-" + size)
            _ = c.handle(.escape)
            c.openDetails(answering: downloads)
            _ = c.frame(now: 12)
            assertGolden(c, "details-" + size)
            _ = c.handle(.pageDown)
            _ = c.frame(now: 13)
            assertGolden(c, "details-end-" + size)
            _ = c.handle(.escape)
            for i in 0..<30 { c.report("message \(i)", isError: i % 7 == 0) }
            _ = c.handle(.character("v"))
            _ = c.frame(now: 14)
            assertGolden(c, "log-" + size)
            _ = c.handle(.escape)
            _ = c.frame(now: 15)
            assertGolden(c, "recent-messages-" + size)
            _ = c.handle(.character(":"))
            for ch in "limit 2M" { _ = c.handle(.character(ch)) }
            _ = c.frame(now: 16)
            assertGolden(c, "command-" + size)
        }
    }

    /// Where the locale is not UTF-8 the terminal gets only ASCII, each character as wide as the
    /// one it replaces, so every row keeps its layout.
    func testOutsideUTF8EveryRowIsASCIIOfTheSameWidth() {
        XCTAssertEqual(ASCIIFallback.text("日本語.zip — 2.0 MiB · ok…"), "??????.zip - 2.0 MiB - ok~")
        XCTAssertEqual(ASCIIFallback.text("e\u{301}\u{1B}x"), "?x", "a combining mark stays with its letter")
        let c = controller(unicode: false)
        for key in [Key.character("x"), .enter, .escape, .character("?")] {
            _ = c.handle(key)
            _ = c.frame(now: 20)
            for row in 0..<c.grid.height {
                let text = ASCIIFallback.text(c.grid.text(row: row))
                XCTAssertTrue(text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, text)
                XCTAssertEqual(text.utf8.count, 80, text)
            }
        }
    }
}
