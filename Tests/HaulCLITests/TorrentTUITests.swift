import Foundation
import HaulTestSupport
import XCTest

/// The UI as a person drives it in tmux: a `.torrent` file added by its path in the add dialog,
/// its files box, and a file skipped with Space while the torrent runs.
final class TorrentTUITests: TorrentTestCase {
    func testATorrentFileAddedInTheUIFetchesOnlyTheFilesLeftChosen() async throws {
        let folder = seedData + "/set"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for i in 1...3 { try TestFiles.random(folder + "/part\(i).bin", size: 400_000) }
        let torrent = swarm.directory + "/set.torrent"
        let hash = try await swarm.makeTorrent(of: folder, to: torrent)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        // Slow enough (twenty seconds for all three) to skip a file before it is all there; the
        // global limit holds for torrents too.
        let limited = try await haul("limit", "60K")
        XCTAssertEqual(limited.status, 0, limited.stderr)
        let tui = try await TmuxSession(
            command: "'\(HaulBinary.path)'; sleep 600", width: 120, height: 30,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tui"))
        defer { Task { await tui.kill() } }
        _ = try await tui.waitFor { $0.contains("q Quit") }
        try await tui.send("a")
        _ = try await tui.waitFor { $0.contains("A URL, a magnet link or a .torrent") }
        try await tui.send(torrent, literal: true)
        try await tui.send("Enter")
        _ = try await tui.waitFor(timeout: 30) { $0.contains("set") && $0.contains("1p") }
        try await tui.send("Enter")
        _ = try await tui.waitFor(timeout: 30) { $0.contains("Info hash") }
        try await tui.send("f")
        _ = try await tui.waitFor { $0.contains("Files of set") && $0.contains("3 of 3 files chosen") }
        try await tui.send("j")
        try await tui.send("j")
        try await tui.send("Space")
        let skipped = try await tui.waitFor { $0.contains("2 of 3 files chosen") }
        XCTAssertTrue(skipped.contains("☐ 3. set/part3.bin"), skipped)
        try await tui.send("Escape")
        try await tui.send("Escape")
        var row: [String: Any] = [:]
        try await waitUntil(timeout: 60) {
            row = (try? self.syncList().first) ?? [:]
            return row["state"] as? String == "finished"
        }
        XCTAssertEqual(row["selectFile"] as? String, "1-2")
        XCTAssertEqual(row["totalBytes"] as? Int, 800_000)
        XCTAssertTrue(sameFile(downloads + "/set/part1.bin", folder + "/part1.bin"))
        XCTAssertTrue(sameFile(downloads + "/set/part2.bin", folder + "/part2.bin"))
        XCTAssertFalse(sameFile(downloads + "/set/part3.bin", folder + "/part3.bin"), "the skipped file is not fetched")
        let screen = try await tui.capture()
        XCTAssertFalse(screen.contains("\u{1b}"))
    }
}
