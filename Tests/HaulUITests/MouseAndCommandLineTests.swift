import Foundation
import Synchronization
import XCTest

@testable import HaulCore
@testable import HaulUI

/// A wall clock a test moves by hand.
final class HandWallClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1000))
    func read() -> Date { now.withLock { $0 } }
    func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
}

/// The mouse, the `:` command line, `o`/`O`, the status line's recent messages and the log, as
/// the controller sees them (the terminal's escape sequences are the tmux tests').
final class MouseAndCommandLineTests: XCTestCase {
    func download(_ i: Int, _ state: DownloadState = .waiting) -> Download {
        var d = Download(
            id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/dl",
            queueOrder: UInt64(i))
        d.fileName = "f\(i).bin"
        d.state = state
        return d
    }

    func controller(_ count: Int, states: [DownloadState] = []) -> TUIController {
        let downloads = (0..<count).map { i in download(i, i < states.count ? states[i] : .waiting) }
        let c = TUIController(downloads: downloads, width: 80, height: 24, defaultDirectory: "/dl", home: "/home/u")
        _ = c.frame(now: 0)
        return c
    }

    func click(_ c: TUIController, row: Int, column: Int = 10) -> [Effect] {
        c.handle(.mouse(MouseEvent(.press, row: row, column: column)))
    }

    func testAClickSelectsTheRowAimedAtAndADoubleClickOpensItsDetails() {
        let c = controller(5)
        let clock = HandWallClock()
        c.wallClock = { clock.read() }
        _ = click(c, row: c.layout.firstListRow + 3)
        XCTAssertEqual(c.selectedIndex, 3)
        clock.advance(1)
        _ = click(c, row: c.layout.firstListRow + 1)
        XCTAssertEqual(c.selectedIndex, 1)
        XCTAssertEqual(c.mode, .list, "two clicks a second apart are two clicks")
        clock.advance(0.2)
        _ = click(c, row: c.layout.firstListRow + 1)
        XCTAssertEqual(c.mode, .details(DownloadID(rawValue: "000001")))
        _ = click(c, row: 0)
        XCTAssertEqual(c.mode, .list, "a click closes the box")
        _ = click(c, row: c.layout.firstListRow + 10)
        XCTAssertEqual(c.selectedIndex, 1, "a click below the list selects nothing")
    }

    func testTheWheelMovesThroughTheList() {
        let c = controller(40)
        for _ in 0..<8 { _ = c.handle(.mouse(MouseEvent(.wheelDown, row: 5, column: 5))) }
        XCTAssertEqual(c.selectedIndex, 24)
        XCTAssertGreaterThan(c.list.scroll, 0, "the list scrolled with it")
        _ = c.handle(.mouse(MouseEvent(.wheelUp, row: 5, column: 5)))
        XCTAssertEqual(c.selectedIndex, 21)
    }

    func testAClickOnATitleSortsByItAndAClickOnAKeyHintDoesWhatTheKeyDoes() {
        let c = controller(3, states: [.downloading])
        _ = click(c, row: c.layout.titleRow, column: 4)
        XCTAssertEqual(c.sort, .name)
        _ = click(c, row: c.layout.titleRow, column: 4)
        XCTAssertEqual(c.sort, .queue, "again: back to the queue's order")
        _ = click(c, row: c.layout.titleRow, column: 79)
        XCTAssertEqual(c.sort, .state)
        // "a Add  p Pause …": the p hint pauses the selected download.
        let footer = c.grid.text(row: c.layout.footerRow)
        let pause = footer.distance(from: footer.startIndex, to: footer.range(of: "p Pause")!.lowerBound)
        _ = click(c, row: c.layout.titleRow, column: 4)
        _ = click(c, row: c.layout.titleRow, column: 4)
        XCTAssertEqual(
            click(c, row: c.layout.footerRow, column: pause + 2),
            [.send(.pause(.ids([DownloadID(rawValue: "000000")])))])
        _ = click(c, row: c.layout.footerRow, column: 74)
        XCTAssertEqual(c.mode, .confirm(.quitWhileRunning(count: 3)), "q Quit, pinned to the right")
    }

    func testTheCommandLineSendsWhatWasTypedWithTheSelectionAndKeepsAHistory() {
        let c = controller(2)
        c.commandNames = ["add", "cancel", "connections", "cookies", "limit", "move"]
        _ = c.handle(.character("j"))
        _ = c.handle(.character(":"))
        XCTAssertEqual(c.mode, .prompt(Prompt(.command, LineEditor(""))))
        for ch in "li" { _ = c.handle(.character(ch)) }
        _ = c.handle(.tab)
        XCTAssertEqual(c.mode, .prompt(Prompt(.command, LineEditor("limit "))))
        for ch in "2M" { _ = c.handle(.character(ch)) }
        XCTAssertEqual(c.handle(.enter), [.runCommand("limit 2M", selected: DownloadID(rawValue: "000001"))])
        XCTAssertTrue(c.grid.text(row: c.layout.statusRow).isEmpty || c.mode == .list)

        _ = c.handle(.character(":"))
        for ch in "co" { _ = c.handle(.character(ch)) }
        _ = c.handle(.tab)
        XCTAssertEqual(
            c.mode, .prompt(Prompt(.command, LineEditor("co"))), "three names start so: Tab completes what they share")
        _ = c.handle(.character("o"))
        _ = c.handle(.tab)
        XCTAssertEqual(c.mode, .prompt(Prompt(.command, LineEditor("cookies "))))
        _ = c.handle(.escape)

        _ = c.handle(.character(":"))
        _ = c.handle(.up)
        XCTAssertEqual(c.mode, .prompt(Prompt(.command, LineEditor("limit 2M"))), "↑ recalls the last command")
        _ = c.handle(.down)
        XCTAssertEqual(c.mode, .prompt(Prompt(.command, LineEditor(""))))
        _ = c.frame(now: 1)
        XCTAssertEqual(c.grid.text(row: c.layout.statusRow).trimmingCharacters(in: .whitespaces), ":▏")
    }

    func testOOpensAFinishedFileAndOItsFolder() {
        var done = Download(id: DownloadID(rawValue: "aaaaaa"), url: "http://h/a", directory: "/dl", queueOrder: 0)
        done.fileName = "a b.bin"
        done.state = .finished
        let c = TUIController(downloads: [done], width: 80, height: 24, defaultDirectory: "/dl", home: "/home/u")
        _ = c.frame(now: 0)
        XCTAssertEqual(c.handle(.character("o")), [.open(path: "/dl/a b.bin")])
        XCTAssertEqual(c.handle(.character("O")), [.open(path: "/dl")])
        let running = controller(1, states: [.downloading])
        XCTAssertEqual(running.handle(.character("o")), [])
        XCTAssertEqual(running.status?.text, "f0.bin is not finished yet; O opens its folder")
    }

    func testTheStatusLineKeepsTheLastFewMessagesForAFewSecondsAndTheLogKeepsThemAll() {
        let c = controller(1)
        let clock = HandWallClock()
        c.wallClock = { clock.read() }
        c.report("first")
        clock.advance(1)
        c.report("second", isError: true)
        _ = c.frame(now: 1)
        XCTAssertTrue(c.grid.text(row: c.layout.statusRow).hasPrefix("second  ·  first"))
        _ = c.handle(.character("j")) // a key no longer wipes it
        _ = c.frame(now: 2)
        XCTAssertTrue(c.grid.text(row: c.layout.statusRow).hasPrefix("second"))
        clock.advance(6)
        _ = c.frame(now: 8)
        XCTAssertTrue(c.grid.text(row: c.layout.statusRow).hasPrefix("sort: queue"), "gone after a few seconds")

        c.apply(.updated(download(0, .failed(.status(404)))))
        _ = c.handle(.character("v"))
        XCTAssertEqual(c.mode, .log)
        _ = c.frame(now: 9)
        let screen = (0..<c.grid.height).map { c.grid.text(row: $0) }.joined(separator: "\n")
        XCTAssertTrue(screen.contains("first"), screen)
        XCTAssertTrue(screen.contains("second"), screen)
        XCTAssertTrue(screen.contains("f0.bin failed: "), screen)
        _ = c.handle(.escape)
        XCTAssertEqual(c.mode, .list)
    }
}

/// A torrent's details box: `f` opens its files box, where Space fetches or skips the file under
/// the cursor at once.
final class TorrentDetailsKeyTests: XCTestCase {
    func testFInATorrentsDetailsOpensItsFilesAndSpaceSkipsOne() {
        var torrent = Download(
            id: DownloadID(rawValue: "00000a"), url: "magnet:?xt=urn:btih:" + String(repeating: "ab", count: 20),
            directory: "/dl", queueOrder: 1)
        torrent.torrent = TorrentFacts(infoHash: String(repeating: "ab", count: 20), fileCount: 3)
        let c = TUIController(downloads: [torrent], width: 80, height: 24, defaultDirectory: "/dl", home: "/home/u")
        _ = c.frame(now: 0)
        _ = c.handle(.enter)
        c.describe(torrent, id: torrent.id)
        var details = TorrentDetails()
        details.files = ["a/one.flac", "a/two.flac", "a/\u{1b}]0;three.flac"].map {
            TorrentDetails.File(path: $0, size: 1000, done: 500, selected: true)
        }
        c.describeTorrent(details, id: torrent.id)
        _ = c.handle(.character("f"))
        guard case .files = c.mode else { return XCTFail("no files box: \(c.mode)") }
        XCTAssertEqual(c.torrentInDetails, torrent.id, "its files are asked for each second while the box is open")
        _ = c.handle(.down)
        XCTAssertEqual(c.handle(.character(" ")), [.send(.selectFiles(torrent.id, try! FileSelection("1,3")))])
        _ = c.frame(now: 1)
        let screen = (0..<24).map { c.grid.text(row: $0) }.joined(separator: "\n")
        XCTAssertTrue(screen.contains("☐ 2. a/two.flac"), screen)
        XCTAssertTrue(screen.contains("☑ 1. a/one.flac"), screen)
        XCTAssertTrue(screen.contains("2 of 3 files chosen"), screen)
        XCTAssertFalse(screen.contains("\u{1b}"), "a name from the swarm is made safe")
        _ = c.handle(.escape)
        XCTAssertEqual(c.mode, .details(torrent.id))
    }

    func testFElsewhereInDetailsDoesNothing() {
        var plain = Download(id: DownloadID(rawValue: "00000b"), url: "http://h/x", directory: "/dl", queueOrder: 1)
        plain.fileName = "x.bin"
        let c = TUIController(downloads: [plain], width: 80, height: 24, defaultDirectory: "/dl", home: "/home/u")
        _ = c.frame(now: 0)
        _ = c.handle(.enter)
        c.describe(plain, id: plain.id)
        _ = c.handle(.character("f"))
        XCTAssertEqual(c.mode, .details(plain.id))
    }
}
