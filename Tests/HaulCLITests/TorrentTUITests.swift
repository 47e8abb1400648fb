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
        // Listening on every address, as by default: the sockets that cannot reach the tracker
        // on loopback (IPv6, other interfaces) skip it.
        let everywhere = try await haul("torrents", "--interface", "any", "--port-mapping", "off")
        XCTAssertEqual(everywhere.status, 0, everywhere.stderr)
        let tui = try await TmuxSession(
            command: "'\(HaulBinary.path)'; sleep 600", width: 120, height: 30,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tui"))
        sessions.append(tui)
        _ = try await tui.waitFor { $0.contains("q Quit") }
        try await tui.send("a")
        _ = try await tui.waitFor { $0.contains("A URL, a magnet link or a .torrent") }
        try await tui.send(torrent, literal: true)
        try await tui.send("Enter")
        _ = try await tui.waitFor(timeout: 30) { $0.contains("set") && $0.contains("1p") }
        try await tui.send("Enter")
        _ = try await tui.waitFor(timeout: 30) { $0.contains("Info hash") && $0.contains("Trackers") }
        // A skip is no news while the tracker answers on loopback.
        try await Task.sleep(for: .seconds(1))
        let details = try await tui.capture()
        let trackers = details.split(separator: "\n").first { $0.contains("Trackers") } ?? ""
        XCTAssertTrue(trackers.contains("/announce"), details)
        XCTAssertFalse(trackers.contains("skipping"), details)
        try await tui.send("f")
        _ = try await tui.waitFor { $0.contains("Files of set") && $0.contains("3 of 3 files chosen") }
        try await tui.send("j")
        try await tui.send("j")
        try await tui.send("Space")
        let skipped = try await tui.waitFor { $0.contains("2 of 3 files chosen") }
        XCTAssertTrue(skipped.contains("☐ 3. set/part3.bin"), skipped)
        try await tui.send("Escape")
        try await tui.send("Escape")
        let row = try await firstRow(within: 60) { $0["state"] as? String == "finished" }
        XCTAssertEqual(row["selectFile"] as? String, "1-2")
        XCTAssertEqual(row["totalBytes"] as? Int, 800_000)
        XCTAssertTrue(sameFile(downloads + "/set/part1.bin", folder + "/part1.bin"))
        XCTAssertTrue(sameFile(downloads + "/set/part2.bin", folder + "/part2.bin"))
        XCTAssertFalse(sameFile(downloads + "/set/part3.bin", folder + "/part3.bin"), "the skipped file is not fetched")
        let screen = try await tui.capture()
        XCTAssertFalse(screen.contains("\u{1b}"))
    }
}

/// A torrent of 100,000 files: added, listed and chosen from in the UI without the UI falling
/// behind, in bounded memory.
final class TorrentManyFilesTests: TorrentTestCase {
    /// A torrent of `count` files of 10 zero bytes each, under `big/dirN/`.
    func manyFilesTorrent(count: Int) -> [UInt8] {
        let pieceLength = 65_536
        let total = count * 10
        var hashes: [UInt8] = []
        for start in stride(from: 0, to: total, by: pieceLength) {
            hashes += TestDigest.sha1([UInt8](repeating: 0, count: min(pieceLength, total - start)))
        }
        let files = (0..<count).map { i in
            Bencode.dictionary([
                "length": .integer(10),
                "path": .list([.bytes(Array("dir\(i / 1000)".utf8)), .bytes(Array("file\(i).txt".utf8))]),
            ])
        }
        let info = Bencode.dictionary([
            "files": .list(files), "name": .bytes(Array("big".utf8)), "piece length": .integer(Int64(pieceLength)),
            "pieces": .bytes(hashes),
        ])
        return Bencode.dictionary(["announce": .bytes(Array(swarm.announce.utf8)), "info": info]).encoded
    }

    func testAHundredThousandFilesAreChosenFromInTheUIInBoundedMemory() async throws {
        let file = dir.path + "/big.torrent"
        try Data(manyFilesTorrent(count: 100_000)).write(to: URL(fileURLWithPath: file))
        let added = try await haul("add", file)
        XCTAssertEqual(added.status, 0, added.stderr)
        let tui = try await TmuxSession(
            command: "'\(HaulBinary.path)'; sleep 600", width: 120, height: 30,
            environment: environment(["TERM": "xterm-256color"]), workDirectory: dir.subdirectory("tui"))
        sessions.append(tui)
        _ = try await tui.waitFor { $0.contains("q Quit") && $0.contains("big") }
        try await tui.send("Enter")
        _ = try await tui.waitFor(timeout: 30) { $0.contains("Info hash") }
        try await tui.send("f")
        _ = try await tui.waitFor(timeout: 30) { $0.contains("100000 of 100000 files chosen") }
        // Each key shows within a few seconds though the list is asked for each second.
        try await tui.send("End")
        _ = try await tui.waitFor(timeout: 5) { $0.contains("100000. big/dir99/file99999.txt") }
        try await tui.send("Space")
        _ = try await tui.waitFor(timeout: 5) { $0.contains("99999 of 100000 files chosen") }
        try await tui.send("Home")
        _ = try await tui.waitFor(timeout: 5) { $0.contains("1. big/dir0/file0.txt") }
        let pid = try String(contentsOfFile: dir.path + "/state/state.json.lock", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        let kib = Int(peak?.split(separator: " ").dropFirst().first ?? "") ?? 0
        print("peak RSS with 100,000 files: \(kib / 1024) MiB")
        XCTAssertLessThan(kib, 200 * 1024, "peak RSS \(kib) KiB")
        let row = try syncList().first
        XCTAssertEqual(row?["selectFile"] as? String, "1-99999")
    }
}
