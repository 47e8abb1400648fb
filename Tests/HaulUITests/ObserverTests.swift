import XCTest

@testable import HaulCore
@testable import HaulUI

/// The row-binding observer layer: events reach only the rows bound to their download.
final class ObserverTests: XCTestCase {
    func downloads(_ n: Int) -> [Download] {
        (0..<n).map { i in
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/tmp",
                queueOrder: UInt64(i))
            d.fileName = "file-\(i).bin"
            d.state = .downloading
            d.totalBytes = 1000
            return d
        }
    }

    func progress(_ i: Int, _ received: Int64) -> EngineEvent {
        .progress(
            ProgressSample(
                id: DownloadID(rawValue: String(format: "%06x", i)), receivedBytes: received, totalBytes: 1000,
                bytesPerSecond: 10, etaSeconds: 1))
    }

    /// 10,000 downloads on a 24-line screen: 20 visible rows.
    func makeController() -> TUIController {
        let c = TUIController(
            downloads: downloads(10_000), width: 100, height: 24, defaultDirectory: "/tmp", home: "/root")
        XCTAssertEqual(c.layout.slotCount, 20)
        _ = c.frame(now: 0)
        return c
    }

    func testProgressForAnOffScreenDownloadRedrawsNoRow() {
        let c = makeController()
        let before = c.router.rowRedraws
        c.apply(progress(5000, 500))
        XCTAssertEqual(c.frame(now: 0.1), .rows([0]), "only the header totals change")
        XCTAssertEqual(c.router.rowRedraws - before, 0)
        XCTAssertEqual(c.router.eventsDeliveredToRows, 0)
    }

    func testProgressForAVisibleDownloadRedrawsOnlyItsRow() {
        let c = makeController()
        let before = c.router.rowRedraws
        c.apply(progress(3, 500))
        XCTAssertEqual(c.frame(now: 0.1), .rows([0, c.layout.row(forSlot: 3)]))
        XCTAssertEqual(c.router.rowRedraws - before, 1)
        XCTAssertTrue(c.grid.text(row: c.layout.row(forSlot: 3)).contains("50%"))
    }

    func testAThousandEventsBetweenTwoFramesRedrawTheRowOnce() {
        let c = makeController()
        let before = c.router.rowRedraws
        for n in 1...1000 { c.apply(progress(7, Int64(n))) }
        _ = c.frame(now: 0.1)
        XCTAssertEqual(c.router.rowRedraws - before, 1)
        XCTAssertEqual(c.router.eventsDeliveredToRows, 1000)
        XCTAssertEqual(c.frame(now: 0.2), .none, "nothing left to draw")
    }

    func testScrollingRebindsSlots() {
        let c = makeController()
        let slot0 = DownloadID(rawValue: String(format: "%06x", 0))
        XCTAssertEqual(c.router.slots.id(at: 0), slot0)
        // Move the selection past the bottom: the window scrolls by one.
        for _ in 0..<20 { _ = c.handle(.down) }
        _ = c.frame(now: 0.1)
        XCTAssertEqual(c.list.scroll, 1)
        XCTAssertEqual(c.router.slots.id(at: 0), DownloadID(rawValue: String(format: "%06x", 1)))
        XCTAssertEqual(c.router.slots.slots(for: slot0), [], "the old download is unbound")

        let before = c.router.rowRedraws
        c.apply(progress(0, 900))
        XCTAssertEqual(c.frame(now: 0.2), .rows([0]), "its events no longer reach the slot")
        c.apply(progress(20, 900))
        XCTAssertEqual(c.frame(now: 0.3), .rows([0, c.layout.row(forSlot: 19)]), "the newly bound one's do")
        XCTAssertEqual(c.router.rowRedraws - before, 1)
    }

    func testFilteringAndResizingRebind() {
        let c = makeController()
        _ = c.handle(.character("/"))
        for ch in "file-9999" { _ = c.handle(.character(ch)) }
        _ = c.frame(now: 0.1)
        XCTAssertEqual(c.visible, [DownloadID(rawValue: String(format: "%06x", 9999))])
        XCTAssertEqual(c.router.slots.id(at: 1), nil)
        c.apply(progress(0, 10))
        XCTAssertEqual(c.frame(now: 0.2), .rows([0]))

        c.resize(width: 80, height: 10)
        _ = c.frame(now: 0.3)
        XCTAssertEqual(c.router.slots.count, 6)
    }

    func testRowSlotsBindUnbind() {
        var slots = RowSlots(count: 3)
        let a = DownloadID(rawValue: "aaaaaa")
        let b = DownloadID(rawValue: "bbbbbb")
        XCTAssertTrue(slots.bind(0, to: a))
        XCTAssertFalse(slots.bind(0, to: a))
        XCTAssertTrue(slots.bind(0, to: b))
        XCTAssertEqual(slots.slots(for: a), [])
        XCTAssertEqual(slots.slots(for: b), [0])
        slots.resize(to: 0)
        XCTAssertEqual(slots.slots(for: b), [])
    }
}
