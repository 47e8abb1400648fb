import XCTest

@testable import HaulCore
@testable import HaulEngine

/// The engine's table: list order, the position index, and progress kept apart from the rows.
final class DownloadTableTests: XCTestCase {
    private func download(_ n: Int, _ state: DownloadState = .waiting) -> Download {
        var d = Download(
            id: DownloadID(rawValue: String(format: "%06x", n)), url: "http://h/\(n)", directory: "/d",
            queueOrder: UInt64(n))
        d.state = state
        return d
    }

    func testKeepsListOrderThroughReplaceAppendAndRemove() {
        var table = DownloadTable(ChunkedArray((0..<5).map { download($0) }))
        table[download(2).id] = download(2, .paused(by: .user))
        table[download(9).id] = download(9)
        table[download(1).id] = nil
        XCTAssertEqual(table.ids.map(\.rawValue), ["000000", "000002", "000003", "000004", "000009"])
        XCTAssertEqual(table[download(3).id]?.id, download(3).id, "positions moved up after the removal")
        XCTAssertEqual(table[download(2).id]?.state.kind, .paused)
        XCTAssertNil(table[download(1).id])
        XCTAssertEqual(table.activeCount, 4)
        XCTAssertEqual(table.waiting.count, 4)
    }

    func testRemovingManyAtOnceMatchesRemovingOneByOne() {
        var one = DownloadTable(ChunkedArray((0..<50).map { download($0, $0 % 3 == 0 ? .waiting : .finished) }))
        var many = one
        let doomed = (0..<50).filter { $0 % 4 != 1 }.map { download($0).id }
        many.recordProgress(doomed[0], received: 5)
        for id in doomed { one[id] = nil }
        many.remove(Set(doomed))
        XCTAssertEqual(many.ids, one.ids)
        XCTAssertEqual(many.activeCount, one.activeCount)
        XCTAssertEqual(many.waiting, one.waiting)
        XCTAssertEqual(many.progress, [:])
        for id in one.ids { XCTAssertEqual(many[id], one[id]) }
        XCTAssertNil(many[doomed[1]])
    }

    func testADuplicatedIDKeepsItsFirstPlaceAndTheLaterValue() {
        var later = download(1)
        later.state = .finished
        let table = DownloadTable([download(0), download(1), download(2), later])
        XCTAssertEqual(table.ids.map(\.rawValue), ["000000", "000001", "000002"])
        XCTAssertEqual(table[download(1).id]?.state, .finished)
        XCTAssertEqual(table.activeCount, 2)
    }

    func testProgressIsSeenByReadsButLeavesTheStoredRowsShared() {
        var table = DownloadTable(ChunkedArray((0..<3).map { download($0, .downloading) }))
        let snapshot = table.stored
        table.recordProgress(download(1).id, received: 700)
        XCTAssertEqual(table[download(1).id]?.receivedBytes, 700)
        XCTAssertEqual(table.all[1].receivedBytes, 700)
        XCTAssertEqual(table.stored[1].receivedBytes, 0)
        XCTAssertEqual(table.progress, [download(1).id: 700])
        XCTAssertEqual(table.stored.sharedChunks(with: snapshot), 1, "no copy of the rows")

        var paused = table[download(1).id]!
        paused.state = .paused(by: .user)
        table[download(1).id] = paused
        XCTAssertEqual(table.progress, [:], "a written row carries its progress")
        XCTAssertEqual(table.stored[1].receivedBytes, 700)
        table.recordProgress(DownloadID(rawValue: "ffffff"), received: 1)
        XCTAssertEqual(table.progress, [:], "unknown ids are ignored")
    }
}

/// `place(_:before:)`, which the RPC's `changePosition` and `addUri`'s position use.
final class DownloadTablePlaceTests: XCTestCase {
    private func table(_ orders: [UInt64]) -> DownloadTable {
        DownloadTable(
            ChunkedArray(
                orders.enumerated().map { index, order in
                    Download(
                        id: DownloadID(rawValue: String(format: "%06x", index)), url: "http://h/\(index)",
                        directory: "/d", queueOrder: order)
                }))
    }

    private func id(_ n: Int) -> DownloadID { DownloadID(rawValue: String(format: "%06x", n)) }

    private func assertSorted(_ t: DownloadTable, file: StaticString = #filePath, line: UInt = #line) {
        let orders = t.ids.map { t[$0]!.queueOrder }
        XCTAssertEqual(orders, orders.sorted(), "order keys follow the list", file: file, line: line)
        XCTAssertEqual(Set(orders).count, orders.count, "no two share a key", file: file, line: line)
        var waiting = t.waiting
        XCTAssertEqual(waiting.first(t.ids.count), t.ids, "the waiting queue follows the list", file: file, line: line)
    }

    func testMovesBetweenNeighboursWithRoomBetweenTheirKeys() {
        var t = table([0, 10, 20, 30])
        XCTAssertEqual(t.place(id(3), before: id(1)), 1)
        XCTAssertEqual(t.ids, [id(0), id(3), id(1), id(2)])
        assertSorted(t)
    }

    func testShiftsTheRestWhenNeighboursHaveNoRoom() {
        var t = table([0, 1, 2, 3])
        XCTAssertEqual(t.place(id(3), before: id(1)), 1)
        XCTAssertEqual(t.ids, [id(0), id(3), id(1), id(2)])
        assertSorted(t)
        XCTAssertEqual(t.place(id(2), before: id(0)), 0)
        XCTAssertEqual(t.ids, [id(2), id(0), id(3), id(1)])
        assertSorted(t)
    }

    func testToTheEndAndNoMoves() {
        var t = table([0, 1, 2])
        XCTAssertEqual(t.place(id(0), before: nil), 2)
        XCTAssertEqual(t.ids, [id(1), id(2), id(0)])
        assertSorted(t)
        XCTAssertNil(t.place(id(0), before: nil), "already last")
        XCTAssertNil(t.place(id(1), before: id(2)), "already there")
        XCTAssertNil(t.place(id(1), before: id(1)))
        XCTAssertNil(t.place(id(9), before: id(1)), "no such download")
    }
}
