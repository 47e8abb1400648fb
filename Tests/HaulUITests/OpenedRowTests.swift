import Foundation
import XCTest

@testable import HaulCore
@testable import HaulUI

/// Opened rows: `x`, `→`/`←` or a click on the marker opens a download's row into its pieces,
/// connections and last notice under it, the rows below move down, and events for it redraw
/// only its own lines.
final class OpenedRowTests: XCTestCase {
    static let a = DownloadID(rawValue: "aaaaaa")
    static let c = DownloadID(rawValue: "cccccc")

    func downloads(count: Int = 4) -> [Download] {
        var a = Download(id: Self.a, url: "http://h/a", directory: "/dl", queueOrder: 0)
        a.fileName = "debian-12.iso"
        a.state = .downloading
        a.totalBytes = 3 << 20
        a.receivedBytes = (1 << 20) + (1 << 19)
        a.connections = 4
        var b = Download(id: DownloadID(rawValue: "bbbbbb"), url: "http://h/b", directory: "/dl", queueOrder: 1)
        b.fileName = "日本語のファイル名.zip"
        b.state = .paused(by: .user)
        b.receivedBytes = 100
        b.totalBytes = 400
        var c = Download(id: Self.c, url: "http://h/c", directory: "/dl", queueOrder: 2)
        c.fileName = "notes.txt"
        c.fail(.status(410))
        var d = Download(id: DownloadID(rawValue: "dddddd"), url: "http://h/d", directory: "/dl", queueOrder: 3)
        d.fileName = "done.txt"
        d.state = .finished
        d.receivedBytes = 2048
        d.totalBytes = 2048
        var all = [a, b, c, d]
        for i in 4..<count {
            var e = Download(
                id: DownloadID(rawValue: "e" + String(repeating: "0", count: 5 - String(i).count) + String(i)),
                url: "http://h/\(i)", directory: "/dl",
                queueOrder: UInt64(i))
            e.fileName = "file-\(i).bin"
            all.append(e)
        }
        return all
    }

    /// Three pieces of a 3-MiB file: the first done, the other two being fetched.
    func progress(_ c: TUIController, slow: Double = 512 * 1024) {
        c.apply(
            .progress(
                ProgressSample(
                    id: Self.a, receivedBytes: (1 << 20) + (1 << 19), totalBytes: 3 << 20,
                    bytesPerSecond: 1_048_576 + slow, etaSeconds: 2, connections: 2,
                    segments: [
                        LiveSegment(Segment(start: 0, end: 1 << 20, received: 1 << 20), bytesPerSecond: nil),
                        LiveSegment(
                            Segment(start: 1 << 20, end: 2 << 20, received: 1 << 18), bytesPerSecond: 1_048_576),
                        LiveSegment(Segment(start: 2 << 20, end: 3 << 20, received: 1 << 18), bytesPerSecond: slow),
                    ])))
    }

    func controller(width: Int = 80, height: Int = 14, unicode: Bool = true, count: Int = 4) -> TUIController {
        let c = TUIController(
            downloads: downloads(count: count), width: width, height: height, defaultDirectory: "/dl", home: "/root",
            unicode: unicode)
        c.wallClock = { Date(timeIntervalSince1970: 1_000_000) }
        var now = 0.0
        for slow in [128.0, 256, 512].map({ $0 * 1024 }) {
            progress(c, slow: slow)
            _ = c.frame(now: now)
            now += 1
        }
        return c
    }

    func screen(_ c: TUIController) -> [String] { (0..<c.grid.height).map { c.grid.text(row: $0) } }

    func click(_ c: TUIController, row: Int, column: Int) {
        _ = c.handle(.mouse(MouseEvent(.press, row: row, column: column)))
        _ = c.handle(.mouse(MouseEvent(.release, row: row, column: column)))
    }

    func testAnOpenedRowShowsItsPiecesConnectionsAndLastNoticeUnderIt() {
        let c = controller()
        _ = c.handle(.character("x"))
        XCTAssertEqual(c.frame(now: 10), .rows([0, 2, 3, 4, 5, 6, 7, 8]), "the row and every row below it")
        XCTAssertEqual(
            Array(screen(c)[2...9]),
            [
                "▼ debian-12.iso                  ██████░░░░░░  50%  1.5 MiB/s     2s down ×2    ",
                "    pieces       ████████████████▒▒▒▒▒▒▒▒▒▒▒███▒▒▒▒▒▒▒▒▒▒  1 of 3 done          ",
                "    connections  2 (at most 4): 1.0 MiB/s ████ · 512 KiB/s ▃▅██                 ",
                "    last notice  none                                                           ",
                "  日本語のファイル名.zip         ███░░░░░░░░░  25%           by user paused     ",
                "  notes.txt                      link expired or remo… · u: new link failed     ",
                "  done.txt                       ████████████ 100%                   done       ",
                String(repeating: " ", count: 80),
            ])
        XCTAssertTrue(c.grid.spans(row: 2).allSatisfy { $0.style.reverse }, "the row stays selected")
        XCTAssertFalse(c.grid.spans(row: 3).contains { $0.style.reverse }, "its lines are not")
        XCTAssertTrue(c.grid.spans(row: 3).contains { $0.text.hasPrefix("█") && $0.style.color == .cyan })
        XCTAssertTrue(c.grid.spans(row: 3).contains { $0.text.contains("pieces") && $0.style.dim })

        // The failed one's last notice is why it failed, in red; the finished one is all done.
        // Opening the last row scrolls until its lines are on screen.
        _ = c.handle(.down)
        _ = c.handle(.down)
        _ = c.handle(.right)
        _ = c.handle(.down)
        _ = c.handle(.right)
        _ = c.frame(now: 11)
        XCTAssertEqual(
            Array(screen(c)[2...11]).map { $0.trimmingCharacters(in: .whitespaces) },
            [
                "日本語のファイル名.zip         ███░░░░░░░░░  25%           by user paused",
                "▼ notes.txt                      link expired or remo… · u: new link failed",
                "pieces       one piece: the size is not known yet",
                "connections  none running",
                "last notice  link expired or removed (HTTP 410)",
                "▼ done.txt                       ████████████ 100%                   done",
                "pieces       all done",
                "connections  none running",
                "last notice  none",
                "",
            ])
        XCTAssertTrue(c.grid.spans(row: 6).contains { $0.text.contains("HTTP 410") && $0.style.color == .red })
    }

    func testInASCIIAndOnWideAndNarrowScreens() {
        let ascii = controller(unicode: false)
        _ = ascii.handle(.character("x"))
        _ = ascii.frame(now: 10)
        XCTAssertEqual(
            Array(screen(ascii)[2...4]),
            [
                "v debian-12.iso                  ######------  50%  1.5 MiB/s     2s down x2    ",
                "    pieces       ################===========###==========  1 of 3 done          ",
                "    connections  2 (at most 4): 1.0 MiB/s #### · 512 KiB/s -=##                 ",
            ])
        for (width, height) in [(120, 30), (60, 20), (40, 12), (200, 60)] {
            let c = controller(width: width, height: height)
            _ = c.handle(.character("x"))
            _ = c.frame(now: 10)
            for (row, line) in screen(c).enumerated() {
                XCTAssertEqual(DisplayWidth.of(line), width, "\(width)x\(height) row \(row): \(line)")
            }
            XCTAssertTrue(screen(c)[3].hasPrefix("    pieces "), "\(width)x\(height): \(screen(c)[3])")
            XCTAssertTrue(screen(c)[5].contains("last notice"), "\(width)x\(height): \(screen(c)[5])")
        }
        let narrow = controller(width: 40, height: 12)
        _ = narrow.handle(.character("x"))
        _ = narrow.frame(now: 10)
        XCTAssertEqual(screen(narrow)[4], "    connections  2 (at most 4): +2 more ")
    }

    func testArrowsOpenAndCloseAndTheRowsBelowMoveBack() {
        let c = controller()
        _ = c.handle(.right)
        _ = c.frame(now: 10)
        XCTAssertEqual(c.opened, [Self.a])
        XCTAssertTrue(screen(c)[6].contains("日本語"))
        _ = c.handle(.right)
        XCTAssertEqual(c.opened, [Self.a], "→ on an opened row keeps it open")
        _ = c.handle(.left)
        _ = c.frame(now: 11)
        XCTAssertEqual(c.opened, [])
        XCTAssertTrue(screen(c)[2].hasPrefix("▶ debian-12.iso"), screen(c)[2])
        XCTAssertTrue(screen(c)[3].contains("日本語"), screen(c)[3])
        _ = c.handle(.character("x"))
        _ = c.handle(.character("x"))
        XCTAssertEqual(c.opened, [], "x twice: closed again")
    }

    func testEventsForAnOpenedRowRedrawItsLinesAndNothingElse() {
        let c = controller()
        _ = c.handle(.character("x"))
        _ = c.frame(now: 10)
        progress(c)
        XCTAssertEqual(c.frame(now: 10.1), .rows([0, 2, 3, 4, 5]), "the header, the row and its three lines")
        c.apply(
            .progress(
                ProgressSample(
                    id: DownloadID(rawValue: "bbbbbb"), receivedBytes: 200, totalBytes: 400, bytesPerSecond: 0,
                    etaSeconds: nil)))
        XCTAssertEqual(c.frame(now: 10.2), .rows([0, 6]), "a closed row is one line")
    }

    func testAClickOnTheMarkerOpensOrClosesARowAndAClickOnItsLinesSelectsIt() {
        let c = controller()
        _ = c.frame(now: 10)
        click(c, row: 4, column: 0)
        _ = c.frame(now: 10.1)
        XCTAssertEqual(c.opened, [Self.c])
        XCTAssertEqual(c.selectedDownload?.id, Self.c)
        XCTAssertTrue(screen(c)[4].hasPrefix("▼ notes.txt"), screen(c)[4])
        XCTAssertTrue(screen(c)[7].hasPrefix("▶ done.txt") == false && screen(c)[8].contains("done.txt"))
        click(c, row: 2, column: 10)
        XCTAssertEqual(c.selectedDownload?.id, Self.a, "a click on the name only selects")
        XCTAssertEqual(c.opened, [Self.c])
        click(c, row: 6, column: 20)
        XCTAssertEqual(c.selectedDownload?.id, Self.c, "a click on an opened row's line selects its download")
        click(c, row: 4, column: 1)
        _ = c.frame(now: 10.2)
        XCTAssertEqual(c.opened, [])
        XCTAssertTrue(screen(c)[5].contains("done.txt"), screen(c)[5])
    }

    func testTheSelectionStaysOnScreenWithItsLinesAndRemovedRowsAreForgotten() {
        let c = controller(height: 10, count: 30)
        _ = c.handle(.character("G"))
        _ = c.handle(.character("x"))
        _ = c.frame(now: 10)
        let rows = screen(c)
        XCTAssertTrue(rows[2].contains("file-27.bin"), rows.joined(separator: "\n"))
        XCTAssertTrue(rows[4].hasPrefix("▼ file-29.bin"), rows.joined(separator: "\n"))
        XCTAssertTrue(rows[7].contains("last notice"), rows.joined(separator: "\n"))
        _ = c.handle(.up)
        _ = c.handle(.up)
        _ = c.handle(.up)
        _ = c.frame(now: 11)
        XCTAssertTrue(screen(c)[2].hasPrefix("▶ file-26.bin"), screen(c)[2])

        let last = DownloadID(rawValue: "e00029")
        c.apply(.removed(last))
        XCTAssertEqual(c.opened, [])
    }

    func testTheLinesFillTheSlotsAndTheScrollKeepsTheSelectionWithItsLines() {
        // Downloads 0..9; 2 and 5 are opened (4 lines each).
        let lines = ListLines(count: 10) { $0 == 2 || $0 == 5 ? 4 : 1 }
        XCTAssertEqual(
            lines.places(from: 1, slots: 7),
            [
                SlotPlace(index: 1, line: 0), SlotPlace(index: 2, line: 0), SlotPlace(index: 2, line: 1),
                SlotPlace(index: 2, line: 2), SlotPlace(index: 2, line: 3), SlotPlace(index: 3, line: 0),
                SlotPlace(index: 4, line: 0),
            ])
        XCTAssertEqual(
            lines.places(from: 8, slots: 4), [SlotPlace(index: 8, line: 0), SlotPlace(index: 9, line: 0), nil, nil])
        XCTAssertEqual(lines.scroll(0, keeping: 5, slots: 7), 3, "5 and its three lines fit from 3 on")
        XCTAssertEqual(lines.scroll(0, keeping: 3, slots: 7), 0, "already on screen: no move")
        XCTAssertEqual(lines.scroll(0, keeping: 4, slots: 7), 1, "one step down is enough")
        XCTAssertEqual(lines.scroll(6, keeping: 2, slots: 7), 2, "up: the selection at the top")
        XCTAssertEqual(lines.scroll(9, keeping: 8, slots: 7), 5, "no empty slots while the list has more above")
        XCTAssertEqual(lines.scroll(9, keeping: 9, slots: 7), 6, "unless the selection would be cut")
        XCTAssertEqual(lines.lastFullStart(slots: 7), 5)
        XCTAssertEqual(lines.scroll(0, keeping: 2, slots: 2), 2, "taller than the screen: its row at the top")
        XCTAssertEqual(ListLines(count: 3) { _ in 1 }.scroll(2, keeping: 2, slots: 7), 0, "the whole list fits")
        XCTAssertEqual(ListLines(count: 0) { _ in 1 }.scroll(4, keeping: 0, slots: 7), 0)
    }
}
