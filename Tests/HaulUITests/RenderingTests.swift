import XCTest

@testable import HaulCore
@testable import HaulUI

/// Frames rendered into the in-memory grid, compared as text.
final class RenderingTests: XCTestCase {
    func sample() -> [Download] {
        var a = Download(id: DownloadID(rawValue: "aaaaaa"), url: "http://h/a", directory: "/dl", queueOrder: 0)
        a.fileName = "debian-12.iso"
        a.state = .downloading
        a.receivedBytes = 512 << 20
        a.totalBytes = 1 << 30
        var b = Download(id: DownloadID(rawValue: "bbbbbb"), url: "http://h/b", directory: "/dl", queueOrder: 1)
        b.fileName = "日本語のファイル名がとても長いです.zip"
        b.state = .paused(by: .user)
        b.receivedBytes = 100
        b.totalBytes = 400
        var c = Download(id: DownloadID(rawValue: "cccccc"), url: "http://h/c", directory: "/dl", queueOrder: 2)
        c.fail(.status(410))
        var d = Download(id: DownloadID(rawValue: "dddddd"), url: "http://h/d", directory: "/dl", queueOrder: 3)
        d.fileName = "done.txt"
        d.state = .finished
        d.receivedBytes = 2048
        d.totalBytes = 2048
        return [a, b, c, d]
    }

    func render(width: Int, height: Int, unicode: Bool = true) -> TUIController {
        let c = TUIController(
            downloads: sample(), width: width, height: height, defaultDirectory: "/dl", home: "/root", unicode: unicode)
        c.apply(
            .progress(
                ProgressSample(
                    id: DownloadID(rawValue: "aaaaaa"), receivedBytes: 512 << 20, totalBytes: 1 << 30,
                    bytesPerSecond: 2_097_152, etaSeconds: 256)))
        XCTAssertEqual(c.frame(now: 0), .full)
        return c
    }

    func testGoldenFrameAt80x24() {
        let c = render(width: 80, height: 12)
        let expected = [
            " haul  ↓ 2.0 MiB/s  1 active  1 paused  1 done  1 failed           metered: off ",
            "  NAME                           PROGRESS        %      SPEED    ETA STATE      ",
            "▶ debian-12.iso                  ██████░░░░░░  50%  2.0 MiB/s  4m16s "
                + "downloading",
            "  日本語のファイル名がとても長…  ███░░░░░░░░░  25%           "
                + "by user paused     ",
            "  c                              link expired or remo… · u: new link failed     ",
            "  done.txt                       ████████████ 100%                   done       ",
        ]
        for (i, line) in expected.enumerated() {
            XCTAssertEqual(c.grid.text(row: i), line, "row \(i)")
        }
        XCTAssertEqual(c.grid.text(row: 10), DisplayWidth.fit("sort: queue · 4 of 4 shown", width: 80))
        XCTAssertTrue(c.grid.text(row: 11).hasPrefix("a Add  p Pause  c Cancel  d Remove  b Limit  l Its limit"))
        XCTAssertTrue(c.grid.text(row: 11).hasSuffix("? Help  q Quit  "))
        XCTAssertTrue(render(width: 40, height: 10).grid.text(row: 9).contains("q Quit"))
    }

    /// The header's speed limit and budget, a row's own limit, and the line that warns of a
    /// budget nearly used, in Unicode and in ASCII.
    func testGoldenFrameWithSpeedLimitsAndAMeteredBudget() {
        for unicode in [true, false] {
            var downloads = sample()
            downloads[0].speedLimit = 1 << 20
            let c = TUIController(
                downloads: downloads, width: 80, height: 12, defaultDirectory: "/dl", home: "/root", unicode: unicode)
            c.apply(
                .network(
                    NetworkStatus(
                        mode: .on, budget: DataBudget(bytes: 8 << 20, period: .day), budgetUsed: 15 << 19,
                        speedLimit: SpeedLimit(rate: 2 << 20, window: DailyWindow("08:00-23:00")),
                        speedLimitActive: true)))
            XCTAssertEqual(c.frame(now: 0), .full)
            XCTAssertEqual(
                c.grid.text(row: 0),
                " haul  \(unicode ? "↓" : "v") 0 B/s  1 active   "
                    + "limit 2.0 MiB/s · metered: on, 7.5 MiB/8.0 MiB today ")
            let marker = unicode ? "▶" : ">"
            XCTAssertTrue(c.grid.text(row: 2).hasPrefix(marker + " debian-12.iso  "), c.grid.text(row: 2))
            XCTAssertTrue(
                c.grid.text(row: 2).contains(unicode ? " ≤1.0 MiB/s ██████" : " <=1.0 MiB/s ######"),
                c.grid.text(row: 2))
            XCTAssertEqual(
                c.grid.text(row: 10),
                DisplayWidth.fit("metered data budget nearly used: 7.5 MiB of 8.0 MiB today", width: 80))
            c.apply(
                .network(
                    NetworkStatus(
                        mode: .on, budget: DataBudget(bytes: 8 << 20, period: .day), budgetUsed: 8 << 20,
                        speedLimit: SpeedLimit(rate: 0, window: DailyWindow("09:00-17:00")), speedLimitActive: false)))
            _ = c.frame(now: 1)
            XCTAssertTrue(
                c.grid.text(row: 0).hasSuffix(" no limit until 09:00 · metered: on, 8.0 MiB/8.0 MiB today "),
                c.grid.text(row: 0))
            XCTAssertTrue(c.grid.text(row: 10).hasPrefix("metered data budget used: 8.0 MiB of 8.0 MiB today;"))
        }
    }

    func testEveryLineFitsTheWidthAtAnySize() {
        for (w, h) in [(80, 24), (160, 50), (60, 20), (40, 12), (200, 60)] {
            let c = render(width: w, height: h)
            for row in 0..<h {
                XCTAssertEqual(
                    DisplayWidth.of(c.grid.text(row: row)), w, "\(w)x\(h) row \(row): \(c.grid.text(row: row))")
            }
        }
    }

    func testASeedingTorrentShowsItsWholeRatioAtAnyWidth() {
        var d = Download(
            id: DownloadID(rawValue: "eeeeee"), url: "http://h/share.torrent", directory: "/dl", queueOrder: 0)
        d.fileName = "share.bin"
        d.state = .finished
        d.receivedBytes = 3_000_000
        d.totalBytes = 3_000_000
        d.torrent = TorrentFacts(
            infoHash: String(repeating: "ab", count: 20), fileCount: 1, uploaded: 3_000_000, seeding: true)
        d.torrent?.uploadRate = 83_149
        for width in [80, 100, 120, 160] {
            let c = TUIController(downloads: [d], width: width, height: 24, defaultDirectory: "/dl", home: "/root")
            _ = c.frame(now: 0)
            let row = (0..<24).map { c.grid.text(row: $0) }.first { $0.contains("share.bin") } ?? ""
            XCTAssertTrue(row.contains("seeding"), "\(width): \(row)")
            if row.contains("KiB/s") { XCTAssertTrue(row.contains("81.2 KiB/s r1.00"), "\(width): \(row)") }
            XCTAssertFalse(row.contains("r1.…"), "\(width): \(row)")
        }
    }

    /// The details of a seeding torrent say when it ends, with its own goal where it has one.
    func testASeedingTorrentsDetailsSayItsOwnGoal() {
        var d = Download(
            id: DownloadID(rawValue: "eeeeef"), url: "magnet:?xt=urn:btih:\(String(repeating: "ab", count: 20))",
            directory: "/dl", queueOrder: 0)
        d.state = .finished
        d.torrent = TorrentFacts(infoHash: String(repeating: "ab", count: 20), fileCount: 1, seeding: true)
        let saved = TorrentDetailsView.lines(for: d, details: nil, width: 100).map(\.0).joined(separator: "\n")
        XCTAssertTrue(saved.contains("until the seed ratio or time is reached"), saved)
        XCTAssertFalse(saved.contains("its own"), saved)
        d.request.seedGoal = SeedGoal(ratio: 3, minutes: 45)
        let own = TorrentDetailsView.lines(for: d, details: nil, width: 100).map(\.0).joined(separator: "\n")
        XCTAssertTrue(own.contains("until ratio 3.00 (its own) or 45 min (its own)"), own)

        // Once the engine has said which goal holds: the saved settings' parts are named too.
        var details = TorrentDetails()
        details.seedingGoal = SeedGoal(ratio: 3, minutes: 60)
        d.request.seedGoal = SeedGoal(ratio: 3)
        let told = TorrentDetailsView.lines(for: d, details: details, width: 100).map(\.0).joined(separator: "\n")
        XCTAssertTrue(told.contains("until ratio 3.00 (its own) or 60 min"), told)
        XCTAssertFalse(told.contains("60 min (its own)"), told)
        d.request.seedGoal = nil
        details.seedingGoal = SeedGoal(ratio: 1)
        let saved1 = TorrentDetailsView.lines(for: d, details: details, width: 100).map(\.0).joined(separator: "\n")
        XCTAssertTrue(saved1.contains("Seeding") && saved1.contains("until ratio 1.00"), saved1)
        XCTAssertFalse(saved1.contains("its own"), saved1)

        // Resumed by hand after it finished: it seeds until paused, whatever the goal.
        d.torrent?.seedsUntilPaused = true
        let byHand = TorrentDetailsView.lines(for: d, details: details, width: 100).map(\.0).joined(separator: "\n")
        XCTAssertTrue(byHand.contains("until paused"), byHand)
    }

    func testADownloadBeforeItsFirstByteSaysItIsConnecting() {
        var d = Download(id: DownloadID(rawValue: "eeeeee"), url: "http://h/late.bin", directory: "/dl", queueOrder: 0)
        _ = d.start()
        let rowText = { (d: Download) -> String in
            let c = TUIController(downloads: [d], width: 120, height: 24, defaultDirectory: "/dl", home: "/root")
            _ = c.frame(now: 0)
            return ((0..<24).map { c.grid.text(row: $0) }.first { $0.contains("late.bin") } ?? "").trimmingCharacters(
                in: .whitespaces)
        }
        XCTAssertTrue(rowText(d).hasSuffix("connecting"), rowText(d))
        d.totalBytes = 1000
        XCTAssertTrue(rowText(d).hasSuffix("downloading"), "the server answered: \(rowText(d))")
        d.totalBytes = nil
        d.receivedBytes = 10
        XCTAssertTrue(rowText(d).hasSuffix("downloading"), "bytes came, of no size told: \(rowText(d))")
    }

    func testADownloadWaitingForTheNetworkSaysSoWhereItsSpeedWouldBe() {
        var d = Download(id: DownloadID(rawValue: "ffffff"), url: "http://h/far.bin", directory: "/dl", queueOrder: 0)
        _ = d.start()
        d.totalBytes = 1000
        d.receivedBytes = 400
        d.notice = .waitingForNetwork(because: .stalled(seconds: 30))
        let c = TUIController(downloads: [d], width: 120, height: 24, defaultDirectory: "/dl", home: "/root")
        _ = c.frame(now: 0)
        let row = (0..<24).map { c.grid.text(row: $0) }.first { $0.contains("far.bin") } ?? ""
        XCTAssertTrue(row.contains("no network"), row)
        XCTAssertTrue(row.contains("40%"), "its bytes stay shown: \(row)")
    }

    func testNarrowScreensDropColumnsInOrder() {
        XCTAssertEqual(Columns.forWidth(160).size, 17)
        XCTAssertGreaterThan(Columns.forWidth(160).bar, 12)
        XCTAssertEqual(Columns.forWidth(80).size, 0)
        XCTAssertEqual(Columns.forWidth(80).bar, 12)
        XCTAssertEqual(Columns.forWidth(60).bar, 0)
        XCTAssertEqual(Columns.forWidth(60).eta, 6)
        XCTAssertEqual(Columns.forWidth(40).speed, 0)
        XCTAssertGreaterThanOrEqual(Columns.forWidth(40).name, 20)
    }

    func testWideCharactersNeverStraddleTheCut() {
        XCTAssertEqual(DisplayWidth.of("日本語"), 6)
        XCTAssertEqual(DisplayWidth.of("👍🏽x"), 3)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.fit("日本語", width: 5), "日本…")
        XCTAssertEqual(DisplayWidth.fit("日本語", width: 4), "日… ")
        XCTAssertEqual(DisplayWidth.fit("abc", width: 5), "abc  ")
    }

    func testStylesOfSpans() {
        let c = render(width: 100, height: 10)
        let failedRow = c.grid.spans(row: 4)
        XCTAssertTrue(failedRow.contains { $0.text.contains("link expired") && $0.style.color == .red })
        let selectedRow = c.grid.spans(row: 2)
        XCTAssertTrue(selectedRow.allSatisfy { $0.style.reverse }, "the selection is reverse video")
        let doneRow = c.grid.spans(row: 5)
        XCTAssertTrue(doneRow.contains { $0.text.contains("done") && $0.style.color == .green })
    }

    func testMonochromeGlyphs() {
        let c = render(width: 80, height: 8, unicode: false)
        XCTAssertTrue(c.grid.text(row: 2).contains("######------"))
        XCTAssertTrue(c.grid.text(row: 2).hasPrefix("> "))
    }

    func testServerSuppliedTextIsSanitizedBeforeDrawing() {
        var evil = Download(id: DownloadID(rawValue: "eeeeee"), url: "http://h/e", directory: "/dl", queueOrder: 0)
        evil.fileName = "a\u{1B}[2Jb\u{7}c"
        evil.fail(.other("bad \u{1B}]0;title\u{7} reason"))
        let c = TUIController(downloads: [evil], width: 80, height: 8, defaultDirectory: "/dl", home: "/root")
        _ = c.frame(now: 0)
        for row in 0..<8 {
            XCTAssertFalse(c.grid.text(row: row).unicodeScalars.contains { $0.value < 0x20 }, "row \(row)")
        }
        XCTAssertTrue(c.grid.text(row: 2).contains("ab?c"))
    }

    func testWrapBreaksAtSpacesAndNeverSplitsAWideCharacter() {
        XCTAssertEqual(
            DisplayWidth.wrap("the server's certificate is not trusted", width: 16),
            ["the server's", "certificate is", "not trusted"])
        XCTAssertEqual(
            DisplayWidth.wrap("https://example.org/a/very/long/path", width: 12),
            ["https://exam", "ple.org/a/ve", "ry/long/path"])
        XCTAssertEqual(
            DisplayWidth.wrap("日本語のファイル", width: 5), ["日本", "語の", "ファ", "イル"])
        XCTAssertEqual(DisplayWidth.wrap("", width: 5), [""])
        for line in DisplayWidth.wrap(String(repeating: "ab 日本 ", count: 40), width: 7) {
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), 7, line)
        }
    }

    /// A long reason and URL are shown whole in Details, wrapped under their labels.
    func testDetailsWrapsALongReasonAndURLInsideTheBox() {
        let reason =
            "the server's TLS certificate is not trusted (self-signed, expired or from an unknown authority); to "
            + "trust it, set SSL_CERT_FILE to a file with its CA's certificate"
        let url =
            "https://downloads.example.org/releases/2026/11/haul-" + String(repeating: "x", count: 120) + ".tar.gz"
        var failed = Download(id: DownloadID(rawValue: "eeeeee"), url: url, directory: "/dl", queueOrder: 0)
        failed.fail(.tls(reason))
        failed.lastError = .tls(reason)
        let c = TUIController(
            downloads: [failed], width: 100, height: 40, defaultDirectory: "/dl", home: "/root", unicode: true)
        _ = c.frame(now: 0)
        c.openDetails(answering: [failed])
        _ = c.frame(now: 0.1)
        // The box's rows, inside the border, label column included.
        let rows = c.grid.lines.filter { $0.contains("│") }.map { line -> String in
            let inner = line.split(separator: "│", omittingEmptySubsequences: false)
            return inner.count >= 3 ? String(inner[1]).trimmingCharacters(in: .whitespaces) : ""
        }
        let text = rows.joined(separator: " ")
        XCTAssertFalse(
            text.replacingOccurrences(of: "Path        /dl/…", with: "").contains("…"), "nothing is cut: \(text)")
        XCTAssertTrue(
            text.contains("Last error  " + reason.split(separator: " ").prefix(6).joined(separator: " ")), text)
        XCTAssertTrue(text.contains("SSL_CERT_FILE to a file with its CA's certificate"), text)
        XCTAssertTrue(rows.joined().replacingOccurrences(of: " ", with: "").contains(url), text)
        for line in c.grid.lines { XCTAssertEqual(DisplayWidth.of(line), 100, line) }
    }

    func testDetailsAndHelpOverlays() {
        let c = render(width: 100, height: 30)
        c.openDetails(answering: sample())
        XCTAssertEqual(c.frame(now: 0.1), .full)
        let text = c.grid.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("Details"))
        XCTAssertTrue(text.contains("URL         http://h/a"))
        XCTAssertTrue(text.contains("Resumable   unknown yet"))
        _ = c.handle(.escape)
        _ = c.handle(.character("?"))
        _ = c.frame(now: 0.2)
        XCTAssertTrue(c.grid.lines.joined().contains("pause / resume the selected download"))
    }
}

final class GridTests: XCTestCase {
    func testOverwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var g = Grid(width: 6, height: 1)
        g.write("日本語", row: 0, column: 0, style: .plain)
        g.write("x", row: 0, column: 1, style: .plain)
        XCTAssertEqual(g.text(row: 0), " x本語")
        g.write("y", row: 0, column: 2, style: .plain)
        XCTAssertEqual(g.text(row: 0), " xy 語")
        XCTAssertEqual(DisplayWidth.of(g.text(row: 0)), 6)
    }
}

final class AwayRenderingTests: XCTestCase {
    func testTheAwaySummaryShowsOnceAndAnyKeyClosesIt() {
        var finished = Download(
            id: DownloadID(rawValue: "00000a"), url: "http://h/a.iso", directory: "/dl", queueOrder: 0)
        finished.fileName = "a.iso"
        finished.state = .finished
        var failed = Download(
            id: DownloadID(rawValue: "00000b"), url: "http://h/b.zip", directory: "/dl", queueOrder: 1)
        failed.fileName = "b\u{1B}[31m.zip"
        failed.state = .failed(.status(410))
        var report = AwayReport(since: Date(timeIntervalSince1970: 0))
        report.record(finished, at: Date(timeIntervalSince1970: 100))
        report.record(failed, at: Date(timeIntervalSince1970: 100))
        let c = TUIController(
            downloads: [finished, failed], width: 80, height: 24, defaultDirectory: "/dl", home: "/h")
        c.showAway(report)
        XCTAssertEqual(c.frame(now: 0), .full)
        let screen = (0..<24).map { c.grid.text(row: $0) }.joined(separator: "\n")
        XCTAssertTrue(screen.contains("While you were away"), screen)
        XCTAssertTrue(screen.contains("1 finished · 1 failed"), screen)
        XCTAssertTrue(
            screen.contains("failed    b.zip — link expired or removed (HTTP 410)"),
            "newest first, escape sequence removed: \(screen)")
        XCTAssertFalse(screen.contains("\u{1B}"))
        XCTAssertTrue(screen.contains("finished  a.iso"), screen)
        XCTAssertEqual(c.handle(.character("j")), [])
        XCTAssertEqual(c.mode, .list)
        _ = c.frame(now: 1)
        XCTAssertFalse((0..<24).map { c.grid.text(row: $0) }.joined().contains("While you were away"))
    }
}
