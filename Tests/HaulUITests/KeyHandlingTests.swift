import HaulTestSupport
import XCTest

@testable import HaulCore
@testable import HaulUI

final class KeyHandlingTests: XCTestCase {
    func controller(_ states: [DownloadState]) -> TUIController {
        let downloads = states.enumerated().map { i, state -> Download in
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/dl",
                queueOrder: UInt64(i))
            d.fileName = "f\(i)"
            d.state = state
            return d
        }
        let c = TUIController(downloads: downloads, width: 80, height: 24, defaultDirectory: "/dl", home: "/home/u")
        _ = c.frame(now: 0)
        return c
    }

    let id0 = DownloadID(rawValue: "000000"), id1 = DownloadID(rawValue: "000001")

    func testPauseResumeToggle() {
        let c = controller([.downloading, .paused(by: .user)])
        XCTAssertEqual(c.handle(.character("p")), [.send(.pause(.ids([id0])))])
        _ = c.handle(.character("j"))
        XCTAssertEqual(c.handle(.character(" ")), [.send(.resume(.ids([id1])))])
    }

    /// `+` and `-` on a torrent change the most peers it connects to: `-` starts one below the
    /// peers it has, and two is the fewest.
    func testPlusAndMinusOnATorrentChangeItsPeers() {
        let id = DownloadID(rawValue: "00000b")
        var d = Download(
            id: id, url: "magnet:?xt=urn:btih:\(String(repeating: "cd", count: 20))", directory: "/dl", queueOrder: 1)
        d.fileName = "share.bin"
        d.state = .downloading
        var facts = TorrentFacts(infoHash: String(repeating: "cd", count: 20), fileCount: 1)
        facts.peers = 6
        d.torrent = facts
        let c = TUIController(downloads: [d], width: 100, height: 24, defaultDirectory: "/dl", home: "/home/u")
        _ = c.frame(now: 0)
        XCTAssertEqual(c.handle(.character("+")), [], "no limit to raise")
        _ = c.frame(now: 1)
        XCTAssertTrue(c.grid.lines.joined().contains("share.bin has no peer limit"), c.grid.lines.joined())
        XCTAssertEqual(c.handle(.character("-")), [.send(.setConnections(.ids([id]), 5))])
        d.connections = 2
        let floor = TUIController(downloads: [d], width: 100, height: 24, defaultDirectory: "/dl", home: "/home/u")
        _ = floor.frame(now: 0)
        XCTAssertEqual(floor.handle(.character("-")), [])
        XCTAssertEqual(floor.handle(.character("+")), [.send(.setConnections(.ids([id]), 3))])
    }

    func testTheKeyOnAFinishedTorrentStopsItsSeedingOrStartsItAgain() {
        let torrent = { (seeding: Bool) -> Download in
            var d = Download(
                id: DownloadID(rawValue: "00000a"), url: "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))",
                directory: "/dl", queueOrder: 10)
            d.fileName = "share.bin"
            d.state = .finished
            d.torrent = TorrentFacts(infoHash: String(repeating: "ab", count: 20), fileCount: 1, seeding: seeding)
            return d
        }
        let make = { (d: Download) -> TUIController in
            let c = TUIController(downloads: [d], width: 80, height: 24, defaultDirectory: "/dl", home: "/home/u")
            _ = c.frame(now: 0)
            return c
        }
        let id = DownloadID(rawValue: "00000a")
        XCTAssertEqual(
            make(torrent(true)).handle(.character(" ")),
            [.sendThenSay(.pause(.ids([id])), done: "share.bin seeds no more; space seeds it again")])
        let resting = make(torrent(false))
        // Said once the engine took it: a torrent whose files are gone is refused with why.
        XCTAssertEqual(
            resting.handle(.character(" ")),
            [.sendThenSay(.resume(.ids([id])), done: "share.bin seeds again until paused")])
        XCTAssertNil(resting.status)
        let file = controller([.finished])
        XCTAssertEqual(file.handle(.character(" ")), [])
        XCTAssertEqual(file.status?.text, "f0 is already finished")
    }

    func testCancelAsksFirst() {
        let c = controller([.downloading])
        XCTAssertEqual(c.handle(.character("c")), [])
        XCTAssertEqual(c.mode, .confirm(.cancel(id0)))
        XCTAssertEqual(c.handle(.character("n")), [])
        _ = c.handle(.character("c"))
        XCTAssertEqual(c.handle(.character("y")), [.send(.cancel(.ids([id0])))])
    }

    func testRemovingAFinishedDownloadAsksAgainBeforeDeletingTheFile() {
        let c = controller([.finished])
        _ = c.handle(.character("d"))
        XCTAssertEqual(c.handle(.character("y")), [])
        XCTAssertEqual(c.mode, .confirm(.deleteFile(id0)))
        XCTAssertEqual(c.handle(.character("n")), [.send(.remove(.ids([id0]), deleteFiles: false))])
        _ = c.handle(.character("d"))
        _ = c.handle(.character("y"))
        XCTAssertEqual(c.handle(.character("y")), [.send(.remove(.ids([id0]), deleteFiles: true))])
    }

    func testPauseAllThenResumeAll() {
        let c = controller([.downloading, .waiting])
        XCTAssertEqual(c.handle(.character("P")), [.send(.pause(.all))])
        let d = controller([.paused(by: .user), .finished])
        XCTAssertEqual(d.handle(.character("P")), [.send(.resume(.all))])
    }

    func testAddFormValidatesAndSends() {
        let c = controller([])
        _ = c.handle(.character("a"))
        for ch in "ftp://x" { _ = c.handle(.character(ch)) }
        XCTAssertEqual(c.handle(.enter), [])
        XCTAssertEqual(c.status?.isError, true)
        _ = c.handle(.control("u"))
        for ch in "https://example.org/a.iso" { _ = c.handle(.character(ch)) }
        _ = c.handle(.tab)
        _ = c.handle(.control("u"))
        for ch in "~/isos" { _ = c.handle(.character(ch)) }
        _ = c.handle(.tab)
        for ch in "x.iso" { _ = c.handle(.character(ch)) }
        XCTAssertEqual(
            c.handle(.enter),
            [
                .send(
                    .add([
                        DownloadRequest(
                            url: "https://example.org/a.iso", directory: "/home/u/isos", requestedName: "x.iso")
                    ]))
            ])
        XCTAssertEqual(c.mode, .list)
    }

    /// The add dialog shows the folder the rules choose as the URL is typed, before it is sent;
    /// a folder typed by hand stays.
    func testTheAddDialogShowsTheFolderTheRulesChoose() {
        let rules = FolderRules([
            FolderRules.Rule(pattern: .group(.diskImage), folder: "~/Images"),
            FolderRules.Rule(pattern: .host("*.example.org"), folder: "/srv/work"),
        ])
        let c = TUIController(
            downloads: [], width: 80, height: 24, defaultDirectory: "/dl", home: "/home/u", folderRules: rules)
        _ = c.frame(now: 0)
        _ = c.handle(.character("a"))
        for ch in "https://mirror.net/debian.iso" { _ = c.handle(.character(ch)) }
        _ = c.frame(now: 1)
        XCTAssertTrue(c.grid.lines.joined().contains("Directory: /home/u/Images"), c.grid.lines.joined(separator: "\n"))
        for _ in 0..<4 { _ = c.handle(.backspace) }
        for ch in ".txt" { _ = c.handle(.character(ch)) }
        guard case .add(let form) = c.mode else { return XCTFail("\(c.mode)") }
        XCTAssertEqual(form.fields[1].string, "/dl", "no rule for a .txt from there")
        XCTAssertEqual(
            c.handle(.enter), [.send(.add([DownloadRequest(url: "https://mirror.net/debian.txt", directory: "/dl")]))])

        _ = c.handle(.character("a"))
        for ch in "https://files.example.org/notes" { _ = c.handle(.character(ch)) }
        _ = c.handle(.tab)
        _ = c.handle(.control("u"))
        for ch in "/mine" { _ = c.handle(.character(ch)) }
        _ = c.handle(.backTab)
        for ch in ".iso" { _ = c.handle(.character(ch)) }
        XCTAssertEqual(
            c.handle(.enter),
            [.send(.add([DownloadRequest(url: "https://files.example.org/notes.iso", directory: "/mine")]))])
    }

    /// The list keeps rows; the details box asks the engine for the whole download and keeps it
    /// as the engine tells of it.
    func testTheDetailsBoxAsksForTheWholeDownloadAndFollowsIt() {
        let c = controller([.downloading])
        let id = DownloadID(rawValue: "000000")
        XCTAssertEqual(c.handle(.enter), [.describe(id)])
        _ = c.frame(now: 1)
        XCTAssertTrue(c.grid.lines.joined().contains("Reading the download's details"))
        var d = Download(id: id, url: "https://h/whole.iso", directory: "/dl", queueOrder: 0)
        d.fileName = "f0"
        d.etag = "\"v7\""
        c.describe(d, id: id)
        _ = c.frame(now: 2)
        XCTAssertTrue(c.grid.lines.joined().contains("https://h/whole.iso"))
        d.etag = "\"v8\""
        c.apply(.updated(d))
        _ = c.frame(now: 3)
        XCTAssertTrue(c.grid.lines.joined().contains("v8"), "an update reaches the box")
        c.describe(nil, id: DownloadID(rawValue: "ffffff"))
        _ = c.frame(now: 4)
        XCTAssertTrue(c.grid.lines.joined().contains("v8"), "an answer for another download changes nothing")
    }

    func testSortCyclesAndNavigationClamps() {
        let c = controller([.finished, .downloading, .failed(.status(500))])
        for expected in [SortOrder.name, .progress, .speed, .state, .queue] {
            _ = c.handle(.character("s"))
            XCTAssertEqual(c.sort, expected)
        }
        _ = c.handle(.character("G"))
        _ = c.frame(now: 1)
        XCTAssertEqual(c.selectedIndex, 2)
        _ = c.handle(.down)
        XCTAssertEqual(c.selectedIndex, 2)
        _ = c.handle(.character("g"))
        XCTAssertEqual(c.selectedIndex, 0)
    }

    func testQuittingWithDownloadsRunningAsksWhetherToKeepThemGoing() {
        let c = controller([.finished, .downloading, .failed(.status(500))])
        XCTAssertEqual(c.handle(.character("q")), [])
        XCTAssertEqual(c.mode, .confirm(.quitWhileRunning(count: 1)))
        _ = c.frame(now: 1)
        XCTAssertTrue(
            c.grid.text(row: c.layout.statusRow).contains(
                "1 download is running. Keep downloading in the background? [y]es"))
        XCTAssertEqual(c.handle(.escape), [], "Esc stays")
        XCTAssertEqual(c.mode, .list)
        _ = c.handle(.character("q"))
        XCTAssertEqual(c.handle(.character("y")), [.quit(.background)])
        _ = c.handle(.escape)
        _ = c.handle(.character("q"))
        XCTAssertEqual(c.handle(.character("n")), [.quit(.pause)])
        _ = c.handle(.escape)
        XCTAssertEqual(c.handle(.control("c")), [.quit(.leave)], "Ctrl-C leaves at once")

        XCTAssertEqual(
            controller([.finished, .failed(.status(500))]).handle(.character("q")), [.quit(.leave)],
            "nothing runs: no question")
        let held = controller([.paused(by: .user)])
        XCTAssertEqual(held.handle(.character("q")), [.quit(.leave)], "paused by the user: nothing goes on by itself")
    }

    func testKeysBeforeTheFirstFrameActOnTheList() {
        let downloads = [
            Download(id: DownloadID(rawValue: "000000"), url: "http://h/a", directory: "/dl", queueOrder: 0)
        ]
        let c = TUIController(downloads: downloads, width: 80, height: 24, defaultDirectory: "/dl", home: "/h")
        XCTAssertEqual(c.handle(.character("p")), [.send(.pause(.ids([DownloadID(rawValue: "000000")])))])
    }

    func testLineEditorIgnoresControlCharactersFromPaste() {
        var e = LineEditor()
        for ch in "a\u{1B}b\nc" { _ = e.handle(.character(ch)) }
        XCTAssertEqual(e.string, "abc")
        _ = e.handle(.left)
        _ = e.handle(.backspace)
        XCTAssertEqual(e.string, "ac")
    }
}

final class FilterNarrowingTests: XCTestCase {
    func testTypingNarrowsAndDeletingWidensAgain() {
        let names = ["alpha.iso", "alps.zip", "beta.iso", "gamma.tar", "ALPINE.bin"]
        let downloads = names.enumerated().map { i, name -> Download in
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/dl",
                queueOrder: UInt64(i))
            d.fileName = name
            return d
        }
        let c = TUIController(downloads: downloads, width: 80, height: 24, defaultDirectory: "/dl", home: "/h")
        _ = c.frame(now: 0)
        func shown() -> [String] { c.visible.compactMap { c.model[$0]?.fileName } }
        _ = c.handle(.character("/"))
        for (typed, expected) in [
            ("a", names), ("l", ["alpha.iso", "alps.zip", "ALPINE.bin"]),
            ("p", ["alpha.iso", "alps.zip", "ALPINE.bin"]),
            ("h", ["alpha.iso"]),
        ] {
            _ = c.handle(.character(Character(typed)))
            _ = c.frame(now: 1)
            XCTAssertEqual(shown(), expected, "after typing \(typed)")
        }
        _ = c.handle(.backspace)
        _ = c.frame(now: 2)
        XCTAssertEqual(shown(), ["alpha.iso", "alps.zip", "ALPINE.bin"], "deleting widens the result again")
        c.apply(
            .added(
                {
                    var d = Download(
                        id: DownloadID(rawValue: "0000ff"), url: "http://h/x", directory: "/dl", queueOrder: 9)
                    d.fileName = "alpaca.mp4"
                    return d
                }()))
        _ = c.frame(now: 3)
        XCTAssertEqual(
            shown(), ["alpha.iso", "alps.zip", "ALPINE.bin", "alpaca.mp4"], "a new download that matches appears")
        _ = c.handle(.enter)
        _ = c.handle(.character("s")) // name order
        _ = c.frame(now: 4)
        XCTAssertEqual(shown(), ["alpaca.mp4", "alpha.iso", "ALPINE.bin", "alps.zip"])
    }

    /// The benchmark reports what its slowest frame did; each kind of work is named.
    func testEachFrameSaysWhatItDid() {
        let c = TUIController(
            downloads: (0..<50).map { i in
                var d = Download(
                    id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/dl",
                    queueOrder: UInt64(i))
                d.fileName = "file-\(i).bin"
                return d
            }, width: 80, height: 24, defaultDirectory: "/dl", home: "/h")
        _ = c.frame(now: 0)
        XCTAssertEqual(c.lastFrameReport.listed, 50)
        XCTAssertEqual(c.lastFrameReport.rows, 24, "the first frame draws the whole screen")
        XCTAssertEqual(c.lastFrameReport.summary, "list=50,rows=24")

        XCTAssertEqual(c.frame(now: 0.1), .none)
        XCTAssertEqual(c.lastFrameReport, FrameReport(), "nothing changed: nothing done")

        while c.sort != .name { _ = c.handle(.character("s")) }
        _ = c.frame(now: 0.2)
        XCTAssertTrue(c.lastFrameReport.rankedNames, "no worker delivered the name order: this frame computed it")
        XCTAssertEqual(c.lastFrameReport.listed, 50)

        _ = c.handle(.character("/"))
        _ = c.handle(.character("1"))
        _ = c.frame(now: 0.3)
        XCTAssertEqual(c.lastFrameReport.searched, 50)
        XCTAssertFalse(c.lastFrameReport.rankedNames, "the name order is kept")
        _ = c.handle(.character("0"))
        _ = c.frame(now: 0.4)
        XCTAssertEqual(
            c.lastFrameReport.searched, 14, "typing narrows the last result: file-1, file-10…19, file-21, 31, 41")
        XCTAssertEqual(c.visible.count, 1)
        XCTAssertEqual(c.lastFrameReport.summary, "list=1,search=14,rows=\(c.lastFrameReport.rows)")
    }
}

final class ListOrderingTests: XCTestCase {
    /// Progress is sorted on a `Float` first; values a `Float` cannot tell apart must still come
    /// out in exact order, and equal ones in list order.
    func testProgressTooCloseForAFloatStillSortsExactly() {
        let total: Int64 = 1 << 40
        let received: [Int64] = [total / 3, total / 3 + 1, total / 3 - 1, total / 3 + 1, 0, total / 3]
        var model = DownloadListModel()
        for (i, bytes) in received.enumerated() {
            var d = Download(
                id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/dl",
                queueOrder: UInt64(i))
            d.state = .downloading
            d.receivedBytes = bytes
            d.totalBytes = total
            model.apply(.added(d))
        }
        let sorted = ListOrdering.sorted(model.order, by: .progress, in: model).map(\.rawValue)
        XCTAssertEqual(sorted, ["000001", "000003", "000000", "000005", "000002", "000004"])
        let positions = ListOrdering.sortedPositions([0, 2, 3, 4], by: .progress, in: model)
        XCTAssertEqual(positions, [3, 0, 2, 4], "a filtered part sorts the same way")
    }

    /// The fast positional sorts against a plain reference, on random lists with removals and filters.
    func testEveryOrderMatchesAPlainStableSort() {
        var rng = SeededGenerator(seed: 3)
        let names = ["b.iso", "a.zip", "c.tar", "a.zip", "B.iso", "日本.pdf", "z"]
        for round in 0..<50 {
            var model = DownloadListModel()
            for i in 0..<Int.random(in: 0...60, using: &rng) {
                var d = Download(
                    id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)", directory: "/dl",
                    queueOrder: UInt64(i))
                d.fileName = names.randomElement(using: &rng)!
                d.state = [DownloadState.waiting, .downloading, .paused(by: .user), .finished, .failed(.status(404))]
                    .randomElement(using: &rng)!
                d.receivedBytes = Int64.random(in: 0...100, using: &rng)
                d.totalBytes = Bool.random(using: &rng) ? 100 : nil
                model.apply(.added(d))
                if d.state == .downloading, Bool.random(using: &rng) {
                    model.apply(
                        .progress(
                            ProgressSample(
                                id: d.id, receivedBytes: 50, totalBytes: 100,
                                bytesPerSecond: Double.random(in: 0...10, using: &rng).rounded(), etaSeconds: nil)))
                }
            }
            let doomed = model.order.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }
            if round % 2 == 0 {
                for id in doomed { model.apply(.removed(id)) }
            } else {
                model.apply(.removedMany(doomed)) // what `rm --all` sends: one event
            }
            XCTAssertEqual(model.order.count, model.positions.count, "round \(round)")
            XCTAssertEqual(
                DownloadState.Kind.allCases.map { model.count($0) }.reduce(0, +), model.order.count, "round \(round)")
            let filter = ["", "a", "iso", "x"].randomElement(using: &rng)!
            let base = filter.isEmpty ? model.order : model.order.filter { model.searchKey(for: $0)!.contains(filter) }
            func reference<K: Comparable>(_ key: (DownloadID) -> K) -> [DownloadID] {
                base.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
            }
            func fraction(_ d: ListRow) -> Double {
                d.state == .finished ? 1 : d.totalBytes.map { $0 > 0 ? Double(d.receivedBytes) / Double($0) : 0 } ?? 0
            }
            let rank: [DownloadState.Kind: Int] = [.downloading: 0, .waiting: 1, .paused: 2, .failed: 3, .finished: 4]
            let ranks = ListOrdering.nameRanks(model.searchKeyList)
            XCTAssertEqual(ListOrdering.visibleIDs(model, filter: filter, sort: .queue), base, "round \(round)")
            XCTAssertEqual(
                ListOrdering.sorted(base, by: .name, in: model), reference { model.searchKey(for: $0)! },
                "round \(round)")
            XCTAssertEqual(
                ListOrdering.sorted(base, by: .name, in: model, nameRanks: ranks),
                reference { model.searchKey(for: $0)! }, "round \(round)")
            XCTAssertEqual(
                ListOrdering.sorted(base, by: .progress, in: model), reference { -fraction(model[$0]!) },
                "round \(round)")
            XCTAssertEqual(
                ListOrdering.sorted(base, by: .state, in: model), reference { rank[model[$0]!.state.kind]! },
                "round \(round)")
            XCTAssertEqual(
                ListOrdering.sorted(base, by: .speed, in: model),
                reference { -(model.sample(for: $0)?.bytesPerSecond ?? 0) }, "round \(round)")
        }
    }
}
