import XCTest

@testable import HaulCore
@testable import HaulUI

/// The speed graphs: the history behind them (a minute in the header, a whole life in the details)
/// and the characters they are drawn with.
final class SpeedGraphTests: XCTestCase {
    func testAWindowKeepsTheLastSecondsAndALifeHalvesItsPointsWhenFull() {
        var window = SpeedHistory(.window, capacity: 3)
        for speed in [1.0, 2, 3, 4] { window.record(speed) }
        XCTAssertEqual(window.points, [2, 3, 4])

        var life = SpeedHistory(.life, capacity: 4)
        for speed in [1.0, 3, 5, 7] { life.record(speed) }
        XCTAssertEqual(life.points, [2, 6], "full: pairs averaged")
        XCTAssertEqual(life.secondsPerPoint, 2)
        life.record(10)
        XCTAssertEqual(life.points, [2, 6], "a point now waits for two seconds")
        life.record(20)
        XCTAssertEqual(life.points, [2, 6, 15])
        XCTAssertEqual(life.seconds, 6)
        for _ in 0..<1000 { life.record(1) }
        XCTAssertLessThan(life.points.count, 4, "bounded however long it runs")
        XCTAssertEqual(life.seconds, 1006)
    }

    func testSparklinesScaleToTheirPeakAndFallBackToASCII() {
        XCTAssertEqual(Sparkline.render([0, 1, 2, 4, 8], width: 5, unicode: true), "▁▂▃▅█")
        XCTAssertEqual(Sparkline.render([0, 1, 2, 4, 8], width: 5, unicode: false), "_.-=#")
        XCTAssertEqual(Sparkline.render([0, 0, 0], width: 5, unicode: true), "  ▁▁▁", "flat when nothing moves")
        XCTAssertEqual(Sparkline.render([1, 2, 3, 4], width: 2, unicode: true), "▆█", "the last values")
        XCTAssertEqual(Sparkline.fit([1, 3, 5, 7], width: 2), [2, 6])
        XCTAssertEqual(Sparkline.fit([1, 3], width: 5), [1, 3])
    }

    /// The download of the last controller made, for the details box.
    var downloads: [Download] = []

    func controller(width: Int = 100, unicode: Bool = true) -> TUIController {
        var d = Download(id: DownloadID(rawValue: "aaaaaa"), url: "http://h/a", directory: "/dl", queueOrder: 0)
        d.fileName = "a.iso"
        d.state = .downloading
        d.totalBytes = 1 << 30
        downloads = [d]
        return TUIController(
            downloads: [d], width: width, height: 24, defaultDirectory: "/dl", home: "/root", unicode: unicode)
    }

    func progress(_ c: TUIController, _ speed: Double) {
        c.apply(
            .progress(
                ProgressSample(
                    id: DownloadID(rawValue: "aaaaaa"), receivedBytes: 1 << 20, totalBytes: 1 << 30,
                    bytesPerSecond: speed, etaSeconds: 10)))
    }

    func testTheHeaderGraphMovesWhileADownloadRunsAndStaysFlatWhenIdle() {
        let c = controller()
        var now = 0.0
        for speed in [1.0, 2, 4, 8].map({ $0 * 1_048_576 }) {
            progress(c, speed)
            _ = c.frame(now: now)
            now += 1
        }
        let header = c.grid.text(row: 0)
        XCTAssertTrue(header.contains("▂▃▅█ "), header)
        XCTAssertTrue(header.hasSuffix(" metered: off "), header)

        // Stopped: the graph falls to the floor, and after a minute of nothing it is flat and the
        // header is no longer redrawn.
        c.apply(
            .progress(
                ProgressSample(
                    id: DownloadID(rawValue: "aaaaaa"), receivedBytes: 1 << 20, totalBytes: 1 << 30, bytesPerSecond: 0,
                    etaSeconds: nil)))
        for _ in 0..<61 {
            _ = c.frame(now: now)
            now += 1
        }
        XCTAssertTrue(c.grid.text(row: 0).contains(String(repeating: "▁", count: 30)), c.grid.text(row: 0))
        XCTAssertEqual(c.frame(now: now), .none, "an idle graph costs no redraw")

        let ascii = controller(unicode: false)
        progress(ascii, 1_048_576)
        _ = ascii.frame(now: 0)
        XCTAssertTrue(ascii.grid.text(row: 0).contains("#  metered"), ascii.grid.text(row: 0))
    }

    /// Small files end before their own speed is measured: the header says what arrives.
    func testTheHeaderSpeedOfAListOfSmallFilesIsTheBytesThatArrive() {
        let c = controller()
        var now = 0.0
        var n = 0
        for _ in 0..<4 {
            for _ in 0..<10 {
                n += 1
                var d = Download(
                    id: DownloadID(rawValue: "b\(n)"), url: "http://h/\(n)", directory: "/dl", queueOrder: UInt64(n))
                d.state = .downloading
                c.apply(.added(d))
                d.state = .finished
                d.receivedBytes = 32_768
                d.totalBytes = 32_768
                c.apply(.updated(d))
            }
            _ = c.frame(now: now)
            now += 1
        }
        XCTAssertEqual(c.model.arrivedBytes, 40 * 32_768)
        let header = c.grid.text(row: 0)
        XCTAssertTrue(header.contains("\(Formatting.rate(10 * 32_768))"), header)

        // Once nothing runs the header says so at once, whatever arrived in the last seconds.
        c.apply(
            .updated(
                {
                    var d = downloads[0]
                    d.state = .finished
                    return d
                }()))
        _ = c.frame(now: now)
        XCTAssertTrue(c.grid.text(row: 0).contains("\(Formatting.rate(0))"), c.grid.text(row: 0))
    }

    func testTheDetailsShowTheSpeedOverTheDownloadsLife() {
        let c = controller()
        var now = 0.0
        for speed in [1.0, 4, 2].map({ $0 * 1_048_576 }) {
            progress(c, speed)
            _ = c.frame(now: now)
            now += 1
        }
        c.openDetails(answering: downloads)
        _ = c.frame(now: now)
        let screen = (0..<c.grid.height).map { c.grid.text(row: $0) }.joined(separator: "\n")
        XCTAssertTrue(screen.contains("History     ▃█▅▅  4s, peak 4.0 MiB/s"), "\n" + screen)
    }

    func testEachConnectionOfADownloadInPiecesHasItsLastMinuteInTheDetails() {
        let c = controller(width: 120)
        var now = 0.0
        for speed in [1.0, 2, 4].map({ $0 * 1_048_576 }) {
            c.apply(
                .progress(
                    ProgressSample(
                        id: DownloadID(rawValue: "aaaaaa"), receivedBytes: 1 << 20, totalBytes: 1 << 30,
                        bytesPerSecond: 2 * speed, etaSeconds: 10, connections: 2,
                        segments: [
                            LiveSegment(Segment(start: 0, end: 1 << 29, received: 1 << 19), bytesPerSecond: speed),
                            LiveSegment(Segment(start: 1 << 29, end: 1 << 30, received: 1 << 19), bytesPerSecond: 1024),
                        ])))
            _ = c.frame(now: now)
            now += 1
        }
        XCTAssertEqual(c.speeds.pieces[DownloadID(rawValue: "aaaaaa")]?.count, 2)
        c.openDetails(answering: downloads)
        _ = c.frame(now: now)
        let screen = (0..<c.grid.height).map { c.grid.text(row: $0) }.joined(separator: "\n")
        XCTAssertTrue(screen.contains("4.0 MiB/s  ▃▅██"), "\n" + screen)
        XCTAssertTrue(screen.contains("1.0 KiB/s  ████"), "\n" + screen)
    }
}
