import HaulTestSupport
import XCTest

@testable import HaulCore
@testable import HaulUI

/// Random keys and engine events thrown at the TUI controller: it never crashes, every line
/// fits the screen exactly, and no control character reaches the grid.
final class InputFuzzTests: XCTestCase {
    static let keys: [Key] =
        [
            .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .escape, .backspace, .delete, .tab,
            .backTab,
            .control("u"), .control("c"), .resize,
        ] + "ajkgGpPcdrsmML/?yYn hx\u{1B}é日👍".map { Key.character($0) }

    func testRandomKeysAndEventsKeepTheScreenSound() {
        var rng = SeededGenerator.fromEnvironment("InputFuzzTests")
        let sequences = 100
        let length = 40
        var total = 0
        for _ in 0..<sequences {
            let width = Int.random(in: 20...160, using: &rng)
            let height = Int.random(in: 5...50, using: &rng)
            let downloads = (0..<Int.random(in: 0...40, using: &rng)).map { i -> Download in
                var d = Download(
                    id: DownloadID(rawValue: String(format: "%06x", i)), url: "http://h/\(i)\u{1B}[2J", directory: "/d",
                    queueOrder: UInt64(i))
                d.fileName = Bool.random(using: &rng) ? "f\(i)\u{7}日本.bin" : nil
                d.state = [DownloadState.waiting, .downloading, .paused(by: .user), .finished, .failed(.status(404))]
                    .randomElement(using: &rng)!
                d.totalBytes = Bool.random(using: &rng) ? Int64.random(in: 0...1 << 40, using: &rng) : nil
                d.receivedBytes = Int64.random(in: 0...(d.totalBytes ?? 1000), using: &rng)
                return d
            }
            let c = TUIController(
                downloads: downloads, width: width, height: height, defaultDirectory: "/d", home: "/h",
                unicode: Bool.random(using: &rng))
            for step in 0..<length {
                total += 1
                if Bool.random(using: &rng) {
                    _ = c.handle(Self.keys.randomElement(using: &rng)!)
                } else if let d = downloads.randomElement(using: &rng) {
                    c.apply(
                        .progress(
                            ProgressSample(
                                id: d.id, receivedBytes: Int64.random(in: 0...1 << 30, using: &rng),
                                totalBytes: d.totalBytes, bytesPerSecond: Double.random(in: 0...1e9, using: &rng),
                                etaSeconds: nil)))
                }
                if step % 7 == 0 {
                    c.resize(width: Int.random(in: 1...200, using: &rng), height: Int.random(in: 1...60, using: &rng))
                }
                _ = c.frame(now: Double(step))
                for row in 0..<c.grid.height {
                    let line = c.grid.text(row: row)
                    XCTAssertEqual(DisplayWidth.of(line), c.grid.width)
                    XCTAssertFalse(line.unicodeScalars.contains { TerminalText.isUnsafe($0) }, line.debugDescription)
                }
                XCTAssertTrue(c.visible.isEmpty || (0..<c.visible.count).contains(c.selectedIndex))
            }
        }
        Figures.record(
            "TUI keys and events (fuzz)", "\(sequences) sessions, \(total) random keys, events and resizes",
            "no crash; every frame fits the screen; no control character drawn")
    }
}
