import XCTest

@testable import HaulHTTP

/// The scanner behind `ResponseHeadCleaner`: control characters in a head become spaces, the body
/// after it is never touched, and a head without any is read without being written.
final class HeadScannerTests: XCTestCase {
    /// Feeds `chunks` as reads to a scanner the way the cleaner does; returns what was passed on
    /// and how many reads had to be written into.
    func feed(_ chunks: [String]) -> (text: String, written: Int) {
        var scanner = HeadScanner(inHead: true)
        var out: [UInt8] = []
        var written = 0
        for chunk in chunks {
            var bytes = Array(chunk.utf8)
            guard scanner.inHead else {
                out += bytes
                continue
            }
            if !bytes.withUnsafeBytes({ scanner.advanceIfClean($0) }) {
                written += 1
                bytes.withUnsafeMutableBytes { scanner.clean($0) }
            }
            out += bytes
        }
        return (String(decoding: out, as: UTF8.self), written)
    }

    func testACleanHeadIsReadWithoutBeingWritten() {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n"
        let result = feed([head + "\u{1B}[2J", "more\u{7}"])
        XCTAssertEqual(result.written, 0)
        XCTAssertEqual(result.text, head + "\u{1B}[2J" + "more\u{7}", "the body is passed on as sent")
    }

    func testControlCharactersInTheHeadBecomeSpacesAndTheBodyIsLeftAlone() {
        let result = feed([
            "HTTP/1.1 200 OK\r\nContent-Disposition: attachment; filename=\"a\u{1B}[31m",
            "b.bin\u{7F}\"\r\nX: \t\r\n\r\n\u{1B}body",
        ])
        XCTAssertEqual(result.written, 2)
        XCTAssertEqual(
            result.text,
            "HTTP/1.1 200 OK\r\nContent-Disposition: attachment; filename=\"a [31mb.bin \"\r\nX: \t\r\n\r\n\u{1B}body")
    }

    func testTheEndOfTheHeadIsFoundAcrossReads() {
        // The blank line split between two reads: the ESC after it is body.
        let result = feed(["HTTP/1.1 200 OK\r\nA: b\r\n\r", "\n\u{1B}x"])
        XCTAssertEqual(result.written, 0)
        XCTAssertTrue(result.text.hasSuffix("\r\n\r\n\u{1B}x"))
    }

    func testAReadThatNeedsCleaningIsReadAgainFromWhereTheScannerWas() {
        // The first read is clean and ends mid-line; the second has an ESC and the head's end.
        var scanner = HeadScanner(inHead: true)
        XCTAssertTrue(Array("HTTP/1.1 200 OK\r\nA: ".utf8).withUnsafeBytes { scanner.advanceIfClean($0) })
        var second = Array("\u{1B}\r\n\r\n\u{1B}".utf8)
        XCTAssertFalse(second.withUnsafeBytes { scanner.advanceIfClean($0) })
        XCTAssertTrue(scanner.inHead, "nothing was consumed")
        second.withUnsafeMutableBytes { scanner.clean($0) }
        XCTAssertEqual(String(decoding: second, as: UTF8.self), " \r\n\r\n\u{1B}")
        XCTAssertFalse(scanner.inHead)
    }
}
