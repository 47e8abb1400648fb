import Foundation
import HaulTestSupport
import XCTest

/// haul in a swarm on loopback of peers nobody here wrote: opentracker, aria2c and
/// transmission-cli (see ``TorrentSwarm``). Every file must end byte-identical to the seeders'.
class TorrentTestCase: CLITestCase {
    var swarm: TorrentSwarm!
    var seedData: String!
    /// The UIs a test opened in tmux: killed with the test, so no haul outlives it.
    var sessions: [TmuxSession] = []

    override func setUp() async throws {
        try await super.setUp()
        swarm = TorrentSwarm(directory: dir.subdirectory("swarm"))
        seedData = dir.subdirectory("seed")
        // Nothing leaves loopback: no DHT, no peer exchange, no local discovery, no port mapping.
        let settings = try await haul(
            "torrents", "--dht", "off", "--pex", "off", "--lsd", "off", "--interface",
            "127.0.0.1", "--port", "0", "--seed-ratio", "0")
        XCTAssertEqual(settings.status, 0, settings.stderr)
    }

    override func tearDown() async throws {
        for session in sessions { await session.kill() }
        await swarm?.stop()
        swarm = nil
        try await super.tearDown()
    }

    /// A random file of `size` bytes in the seeders' folder, its torrent, and the tracker allowing it.
    func seededFile(_ name: String, size: Int, pieceExponent: Int = 16) async throws -> (torrent: String, hash: String)
    {
        try TestFiles.random(seedData + "/" + name, size: size)
        let torrent = swarm.directory + "/\(name).torrent"
        let hash = try await swarm.makeTorrent(of: seedData + "/" + name, to: torrent, pieceLength: pieceExponent)
        return (torrent, hash)
    }

    /// Stops the aria2c seeder on `aria2Port` and starts a transmission-cli leecher of `torrent`:
    /// haul is then the swarm's only seeder. Returns the leecher's folder.
    func leaveHaulTheOnlySeeder(_ torrent: String, hash: String, stopping aria2Port: Int) async throws -> String {
        await swarm.stopPeer(aria2Port)
        let leeched = dir.subdirectory("leecher")
        try await swarm.runTransmission(torrent, data: leeched)
        try await swarm.waitForLeechers(1, of: hash)
        return leeched
    }

    /// The first row of `haul ls --json` once `condition` holds for it.
    func firstRow(within timeout: Double, where condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var row: [String: Any] = [:]
        try await waitUntil(timeout: timeout) {
            row = (try? self.syncList().first) ?? [:]
            return condition(row)
        }
        return row
    }

    /// `haul ls --json` read synchronously (for `waitUntil`'s condition).
    func syncList() throws -> [[String: Any]] {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HaulBinary.path)
        process.arguments = ["ls", "--json"]
        process.environment = environment()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }
}

final class TorrentSwarmTests: TorrentTestCase {
    func testATorrentFileFromAria2AndTransmissionSeedersEndsByteIdentical() async throws {
        let (torrent, hash) = try await seededFile("image.iso", size: 6_000_000)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.runTransmission(torrent, data: seedData)
        try await swarm.waitForSeeders(2, of: hash)
        let added = try await haul("add", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let listed = try await listJSON()
        XCTAssertEqual(listed.first?["infoHash"] as? String, hash)
        let run = try await haul("run", timeout: 90)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(downloads + "/image.iso", seedData + "/image.iso"))
        // The torrent file is kept beside the state: the download does not depend on the one given.
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/state/torrents/\(hash).torrent"))
        // Its seeding, cut short by the end of the run, is left for the next daemon; a pause ends it for good.
        let state = dir.path + "/state/state.json"
        XCTAssertFalse(try String(contentsOfFile: state, encoding: .utf8).contains("seedingEnded"))
        let id = try XCTUnwrap(listed.first?["id"] as? String)
        let paused = try await haul("pause", id)
        XCTAssertEqual(paused.status, 0, paused.stderr)
        XCTAssertTrue(try String(contentsOfFile: state, encoding: .utf8).contains(#""seedingEnded":true"#))
    }

    func testAMagnetLinkAsWgetWouldTakeItFetchesTheMetadataFromTheSwarm() async throws {
        let (torrent, hash) = try await seededFile("data.bin", size: 3_000_000)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.runTransmission(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        _ = try await haul("torrents", "--seed-ratio", "1.0")
        let magnet =
            "magnet:?xt=urn:btih:\(hash)&tr=\(swarm.announce.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        let work = dir.subdirectory("work")
        let run = try await ChildProcess.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", work, HaulBinary.path, magnet], environment: environment(),
            in: work, timeout: 90)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(work + "/data.bin", seedData + "/data.bin"), run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.contains("seed only while"), run.stderr)
        XCTAssertTrue(run.stderr.contains("the next daemon or UI seeds them on"), run.stderr)
        // A magnet's piece hashes are in the resume data that keeps the metadata the swarm sent.
        let verified = try await haul("verify")
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
        XCTAssertTrue(verified.stdout.contains("data.bin  all 46 pieces OK (SHA-1)"), verified.stdout)
    }

    func testTwoDeselectedFilesOfAMultiFileTorrentAreNotWritten() async throws {
        let folder = seedData + "/album"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (i, size) in [300_000, 200_000, 500_000, 250_000].enumerated() {
            try TestFiles.random(folder + "/track\(i + 1).flac", size: size)
        }
        let torrent = swarm.directory + "/album.torrent"
        let hash = try await swarm.makeTorrent(of: folder, to: torrent)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        let added = try await haul("add", torrent, "--select-file", "1,4")
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try await haul("run", timeout: 90)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(downloads + "/album/track1.flac", folder + "/track1.flac"))
        XCTAssertTrue(sameFile(downloads + "/album/track4.flac", folder + "/track4.flac"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloads + "/album/track2.flac"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: downloads + "/album/track3.flac"))
        let row = try await listJSON().first
        XCTAssertEqual(row?["totalBytes"] as? Int, 550_000)
        XCTAssertEqual(row?["state"] as? String, "finished")
        XCTAssertEqual(row?["selectFile"] as? String, "1,4")
        XCTAssertEqual(row?["fileCount"] as? Int, 4)
        // The files as the state folder keeps them once the run ended: chosen, and how much is on disk.
        let files = try XCTUnwrap(row?["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { $0["path"] as? String }, (1...4).map { "album/track\($0).flac" })
        XCTAssertEqual(files.map { $0["selected"] as? Bool }, [true, false, false, true])
        XCTAssertEqual(files[0]["done"] as? Int, 300_000)
        XCTAssertEqual(files[3]["done"] as? Int, 250_000)
        // `haul verify` reads them back against the piece hashes: the 8 pieces that hold only
        // chosen files' bytes (64 KiB pieces; the two across a chosen and a skipped file are left out).
        let verified = try await haul("verify")
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
        XCTAssertTrue(verified.stdout.contains("album  all 8 pieces OK (SHA-1)"), verified.stdout)
        let track4 = try XCTUnwrap(FileHandle(forUpdatingAtPath: downloads + "/album/track4.flac"))
        try track4.seek(toOffset: 100_000)
        let original = try XCTUnwrap(try track4.read(upToCount: 1))
        try track4.seek(toOffset: 100_000)
        try track4.write(contentsOf: Data([original[0] ^ 0xFF]))
        let corrupted = try await haul("verify")
        XCTAssertEqual(corrupted.status, 1, corrupted.stdout + corrupted.stderr)
        XCTAssertTrue(
            corrupted.stdout.contains("1 of 8 pieces fail their hash; the first in album/track4.flac"),
            corrupted.stdout)
        try track4.seek(toOffset: 100_000)
        try track4.write(contentsOf: original)
        try track4.close()
        // `haul files` lists them with the choice though the torrent no longer runs; a new one is kept.
        let id = try XCTUnwrap(row?["id"] as? String)
        let shown = try await haul("files", id)
        XCTAssertTrue(shown.stdout.contains("1\t[x]\t"), shown.stdout + shown.stderr)
        XCTAssertTrue(shown.stdout.contains("2\t[ ]\t"), shown.stdout + shown.stderr)
        XCTAssertTrue(shown.stdout.contains("100%\talbum/track4.flac"), shown.stdout + shown.stderr)
        let chosen = try await haul("files", id, "2-3")
        XCTAssertTrue(chosen.stdout.contains("fetching files 2-3"), chosen.stdout + chosen.stderr)
        XCTAssertTrue(chosen.stdout.contains("2\t[x]\t"), chosen.stdout + chosen.stderr)
        let bad = try await haul("files", id, "3-1")
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("not a list of file numbers"), bad.stderr)
    }
}

/// haul gives back: a daemon seeds what it fetched until the ratio, and a leecher nobody here
/// wrote gets the file from haul alone. transmission-cli connects to no peer on 127.0.0.1 itself
/// (it takes loopback addresses for martians), so it waits at the tracker before haul asks it:
/// haul, told of it, connects to it; aria2c, which asked before it came, never learns of it.
final class TorrentSeedingTests: TorrentTestCase {
    func testTransmissionGetsTheFileFromHaulAloneAndSeedingStopsAtTheRatio() async throws {
        let (torrent, hash) = try await seededFile("share.bin", size: 2_000_000)
        try await swarm.startTracker(allowing: [hash])
        let aria2 = try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        let leeched = dir.subdirectory("leecher")
        try await swarm.runTransmission(torrent, data: leeched)
        try await swarm.waitForLeechers(1, of: hash)
        let ratio = try await haul("torrents", "--seed-ratio", "1.0")
        XCTAssertTrue(ratio.stdout.contains("seed ratio 1.00"), ratio.stdout)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        let added = try await haul("add", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        var row = try await firstRow(within: 60) { $0["seeding"] as? Bool == true }
        XCTAssertEqual(row["state"] as? String, "finished")
        let listed = try await haul("ls")
        XCTAssertTrue(listed.stdout.contains("seeding"), listed.stdout)
        // haul is the only seeder now.
        await swarm.stopPeer(aria2)
        try await waitUntil(timeout: 90) { self.sameFile(leeched + "/share.bin", self.seedData + "/share.bin") }
        // At ratio 1.0 (2 MB sent) haul stops seeding by itself.
        row = try await firstRow(within: 60) { $0["seeding"] as? Bool == false }
        XCTAssertGreaterThanOrEqual(row["uploaded"] as? Int ?? 0, 2_000_000, "\(row)")
    }

    /// `haul run` ends with its downloads, and the seeding it started with them; the next daemon
    /// seeds on from the resume data, and a leecher gets the file from it alone.
    func testSeedingCutShortByTheEndOfARunGoesOnInTheNextDaemon() async throws {
        let (torrent, hash) = try await seededFile("share.bin", size: 2_000_000)
        try await swarm.startTracker(allowing: [hash])
        let aria2 = try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        _ = try await haul("torrents", "--seed-ratio", "1.0")
        let added = try await haul("add", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try await haul("run", timeout: 90)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(downloads + "/share.bin", seedData + "/share.bin"))
        var row = try XCTUnwrap(syncList().first)
        XCTAssertEqual(row["state"] as? String, "finished")
        XCTAssertEqual(row["seeding"] as? Bool, false)
        // haul is the only seeder now, and nothing runs it.
        let leeched = try await leaveHaulTheOnlySeeder(torrent, hash: hash, stopping: aria2)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        row = try await firstRow(within: 30) { $0["seeding"] as? Bool == true }
        try await waitUntil(timeout: 90) { self.sameFile(leeched + "/share.bin", self.seedData + "/share.bin") }
        row = try await firstRow(within: 60) { $0["seeding"] as? Bool == false }
        XCTAssertGreaterThanOrEqual(row["uploaded"] as? Int ?? 0, 2_000_000, "\(row)")
        // Its ratio reached, it is done for good: the next daemon leaves it be.
        let stopped = try await haul("daemon", "--stop")
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        _ = await daemon.wait()
        let again = try spawnHaul(["daemon"], log: dir.path + "/daemon2.log")
        defer { Task { await again.terminate() } }
        try await Task.sleep(for: .seconds(2))
        row = try XCTUnwrap(syncList().first)
        XCTAssertEqual(row["seeding"] as? Bool, false, "\(row)")
    }

    /// A finished torrent the user resumes by its id seeds again past its ratio (here 0: no seeding
    /// at all) until they pause it, as transmission does with a torrent started by hand.
    func testAFinishedTorrentResumedByHandSeedsPastItsRatioUntilPaused() async throws {
        let (torrent, hash) = try await seededFile("share.bin", size: 2_000_000)
        try await swarm.startTracker(allowing: [hash])
        let aria2 = try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        let added = try await haul("add", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try await haul("run", timeout: 90)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertFalse(run.stderr.contains("seed only while"), "it owes no seeding: \(run.stderr)")
        let id = try XCTUnwrap(syncList().first?["id"] as? String)
        let leeched = try await leaveHaulTheOnlySeeder(torrent, hash: hash, stopping: aria2)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        try await Task.sleep(for: .seconds(2))
        var row = try XCTUnwrap(syncList().first)
        XCTAssertEqual(row["seeding"] as? Bool, false, "a seed ratio of 0: it does not seed by itself")
        let all = try await haul("resume", "--all")
        XCTAssertFalse(all.stdout.contains("seeds again"), "--all leaves finished torrents alone: \(all.stdout)")
        let resumed = try await haul("resume", id)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stdout.contains("finished  share.bin  — seeds again until paused"), resumed.stdout)
        row = try await firstRow(within: 30) { $0["seeding"] as? Bool == true }
        // haul is the only seeder; the leecher gets the file from it, and it seeds on past ratio 1.
        try await waitUntil(timeout: 90) { self.sameFile(leeched + "/share.bin", self.seedData + "/share.bin") }
        try await Task.sleep(for: .seconds(2))
        row = try XCTUnwrap(syncList().first)
        XCTAssertEqual(row["seeding"] as? Bool, true, "\(row)")
        XCTAssertGreaterThanOrEqual(row["uploaded"] as? Int ?? 0, 2_000_000, "\(row)")
        let paused = try await haul("pause", id)
        XCTAssertEqual(paused.status, 0, paused.stderr)
        XCTAssertTrue(
            paused.stdout.contains("finished  share.bin  — seeds no more; 'haul resume \(id)' seeds it again"),
            paused.stdout)
        row = try await firstRow(within: 10) { $0["seeding"] as? Bool == false }
        // Paused, it is done for good, and so it stays in the state.
        let stopped = try await haul("daemon", "--stop")
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        _ = await daemon.wait()
        let state = try String(contentsOfFile: dir.path + "/state/state.json", encoding: .utf8)
        XCTAssertTrue(state.contains(#""seedingEnded":true"#), state)
        XCTAssertFalse(state.contains("seedsUntilPaused"), state)
        // Its file moved away, it cannot seed: the resume says why, and the row keeps the reason
        // until the file is back.
        let path = try XCTUnwrap(row["path"] as? String)
        try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
        let other = try await haul("add", "--paused", "-d", dir.path, "http://127.0.0.1:9/other.bin")
        XCTAssertEqual(other.status, 0, other.stderr)
        let otherID = try XCTUnwrap(syncList().first { $0["id"] as? String != id }?["id"] as? String)
        let refused = try await haul("resume", id, otherID)
        XCTAssertEqual(refused.status, 2, refused.stdout)
        let why = "cannot seed: its files are no longer at \(path)"
        XCTAssertEqual(refused.stderr, "haul: \(id) \(why)\n")
        XCTAssertTrue(
            refused.stdout.contains("\(otherID)  waiting  other.bin"), "the rest is resumed: \(refused.stdout)")
        _ = try await haul("rm", otherID)
        row = try XCTUnwrap(syncList().first)
        XCTAssertEqual(row["notice"] as? String, why, "\(row)")
        XCTAssertEqual(row["state"] as? String, "finished", "\(row)")
        try FileManager.default.moveItem(atPath: path + ".moved", toPath: path)
        let again = try await haul("resume", id)
        XCTAssertTrue(again.stdout.contains("— seeds again until paused"), again.stdout + again.stderr)
        XCTAssertNil(try XCTUnwrap(syncList().first)["notice"] as? String)
    }

    /// A daemon that starts with a finished torrent owing seeding whose file was moved away says
    /// so on its row and in its log, and leaves it finished.
    func testADaemonFindingAFinishedTorrentsFileGoneSaysSoOnItsRow() async throws {
        let hash = String(repeating: "ab", count: 20)
        let saved = try Data(contentsOf: URL(fileURLWithPath: statePath))
        var document = try XCTUnwrap(JSONSerialization.jsonObject(with: saved) as? [String: Any])
        let settings = try XCTUnwrap(document["settings"] as? [String: Any])
        XCTAssertNotNil(settings["torrents"], "the swarm's settings are in the state file, not only its journal")
        document["downloads"] = [
            [
                "id": "00000a", "url": "magnet:?xt=urn:btih:\(hash)&dn=gone.bin", "directory": dir.path,
                "fileName": "gone.bin", "allowMetered": false, "state": "finished", "receivedBytes": 1000,
                "totalBytes": 1000, "retries": 0, "queueOrder": 1, "addedAt": 1_795_000_000,
                "torrent": [
                    "infoHash": hash, "fileCount": 1, "uploaded": 0, "peers": 0, "seeds": 0, "seeding": false,
                    "uploadRate": 0, "seedsUntilPaused": true,
                ],
            ] as [String: Any]
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: statePath))
        try? FileManager.default.removeItem(atPath: statePath + ".journal")
        let listed = try await listJSON()
        XCTAssertEqual(listed.count, 1, "the state file as written here is read whole")
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        let why = "cannot seed: its files are no longer at \(dir.path)/gone.bin"
        let row = try await firstRow(within: 20) { $0["notice"] as? String == why }
        XCTAssertEqual(row["state"] as? String, "finished", "\(row)")
        XCTAssertEqual(row["seeding"] as? Bool, false, "\(row)")
        let stopped = try await haul("daemon", "--stop")
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        _ = await daemon.wait()
        let log = try String(contentsOfFile: dir.path + "/daemon.log", encoding: .utf8)
        XCTAssertTrue(log.contains("00000a: \(why)"), log)
    }

    func testATorrentsOwnUploadLimitHoldsWhileItSeedsAndLiftsLive() async throws {
        let size = 2_000_000
        let (torrent, hash) = try await seededFile("share.bin", size: size)
        try await swarm.startTracker(allowing: [hash])
        let aria2 = try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        let leeched = dir.subdirectory("leecher")
        try await swarm.runTransmission(torrent, data: leeched)
        try await swarm.waitForLeechers(1, of: hash)
        _ = try await haul("torrents", "--seed-ratio", "1.0")
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        let added = try await haul("add", torrent, "--upload-limit", "200K")
        XCTAssertEqual(added.status, 0, added.stderr)
        let row = try await firstRow(within: 60) { $0["seeding"] as? Bool == true }
        await swarm.stopPeer(aria2)
        let id = try XCTUnwrap(row["id"] as? String)
        let shown = try await haul("limit", "--upload")
        XCTAssertTrue(shown.stdout.contains("\(id)  200 KiB/s"), shown.stdout + shown.stderr)
        // transmission-cli (haul its only source) asks when it unchokes; from its first byte on, at
        // 200 KiB/s the 2 MB take ten seconds (unlimited, on loopback, well under one).
        var first = 0
        try await waitUntil(timeout: 60) {
            first = (try? self.syncList().first?["uploaded"] as? Int) ?? 0
            return first > 0
        }
        let start = Date()
        try await Task.sleep(for: .seconds(3))
        let sent = try syncList().first?["uploaded"] as? Int ?? 0
        let seconds = Date().timeIntervalSince(start)
        XCTAssertLessThanOrEqual(sent - first, Int((seconds + 1) * 204_800), "sent \(sent - first) B in \(seconds) s")
        XCTAssertLessThan(sent, size, "all of it went in \(seconds) s: the limit did not hold")
        // Lifted while it seeds: the rest (over a megabyte, six seconds at the limit) goes at once.
        let lifted = try await haul("limit", "--upload", "none", id)
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertTrue(lifted.stdout.contains("no upload limit of its own"), lifted.stdout)
        try await waitUntil(timeout: 4) { self.sameFile(leeched + "/share.bin", self.seedData + "/share.bin") }
    }
}

/// `kill -9` in the middle of a torrent: the pieces in the last saved resume data are never
/// fetched again.
final class TorrentCrashTests: TorrentTestCase {
    func testAfterKill9NoPieceInTheLastResumeDataIsFetchedAgain() async throws {
        let size = 16_000_000
        let (torrent, hash) = try await seededFile("big.bin", size: size)
        try await swarm.startTracker(allowing: [hash])
        // Slow enough to be killed half way, after a few resume saves.
        try await swarm.seedWithAria2(torrent, data: seedData, uploadLimit: "1M")
        try await swarm.waitForSeeders(1, of: hash)
        let added = try await haul("add", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let resumePath = dir.path + "/state/torrents/\(hash).resume"
        let run = try spawnHaul(["run"], log: dir.path + "/run1.log")
        try await waitUntil(timeout: 60) {
            (self.fileSize(downloads + "/big.bin") ?? 0) > 0 && self.haveBytes(resumePath) > Int64(size / 3)
        }
        run.signal(SIGKILL)
        _ = await run.wait()
        let atKill = try XCTUnwrap(Bencode([UInt8](FileManager.default.contents(atPath: resumePath) ?? Data())))
        let have = haveBytes(resumePath)
        let fetchedBefore = try XCTUnwrap(atKill["total_downloaded"]?.integer)
        XCTAssertLessThan(have, Int64(size), "killed too late to mean anything")

        let again = try await haul("run", timeout: 90)
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(sameFile(downloads + "/big.bin", seedData + "/big.bin"))
        let atEnd = try XCTUnwrap(Bencode([UInt8](FileManager.default.contents(atPath: resumePath) ?? Data())))
        let fetchedAfter = try XCTUnwrap(atEnd["total_downloaded"]?.integer) - fetchedBefore
        // What the second run fetched is at most what the resume data did not have (a block or
        // two more for requests in flight at the end game).
        XCTAssertLessThanOrEqual(fetchedAfter, Int64(size) - have + 2 * 65_536, "have \(have) at the kill")
    }

    /// Two state files in one folder with the same torrent: taking it off one list leaves what
    /// the other keeps of it, its `.torrent` and its resume data.
    func testTwoStateFilesInOneFolderKeepTheirTorrentsApart() async throws {
        let (torrent, hash) = try await seededFile("shared.bin", size: 300_000)
        let other = dir.path + "/state/other.json"
        let added = try await haul("add", "--paused", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let addedToOther = try await haul(
            "--state", other, "add", "--paused", "-d", dir.subdirectory("other-downloads"), torrent)
        XCTAssertEqual(addedToOther.status, 0, addedToOther.stderr)
        let kept = dir.path + "/state/other.json.torrents/\(hash).torrent"
        XCTAssertTrue(FileManager.default.fileExists(atPath: kept))
        // What the other list's torrent resumes from, as its last run left it.
        let resume = dir.path + "/state/other.json.torrents/\(hash).resume"
        XCTAssertTrue(FileManager.default.createFile(atPath: resume, contents: Data("d4:piecese".utf8)))

        let listed = try await listJSON()
        let id = try XCTUnwrap(listed.first?["id"] as? String)
        let removed = try await haul("rm", id)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/state/torrents/\(hash).torrent"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: kept), "the other list's torrent is left")
        XCTAssertTrue(FileManager.default.fileExists(atPath: resume), "and its resume data")
    }

    /// `haul refresh` gives an http(s) download a new http(s) link: a torrent has none to renew,
    /// and a magnet link is not one. `haul connections` counts a torrent's peers.
    func testARefreshNeitherRenewsATorrentsLinkNorGivesAMagnetLink() async throws {
        let (torrent, _) = try await seededFile("linked.bin", size: 100_000)
        let added = try await haul("add", "--paused", torrent, "http://127.0.0.1:9/plain.bin")
        XCTAssertEqual(added.status, 0, added.stderr)
        let listed = try await listJSON()
        let torrentID = try XCTUnwrap(listed.first { $0["infoHash"] is String }?["id"] as? String)
        let plainID = try XCTUnwrap(listed.first { !($0["infoHash"] is String) }?["id"] as? String)
        let magnet = try XCTUnwrap(listed.first { $0["infoHash"] is String }?["url"] as? String)

        let renewed = try await haul("refresh", torrentID, "http://127.0.0.1:9/other.bin")
        XCTAssertEqual(renewed.status, 2, renewed.stdout)
        XCTAssertTrue(renewed.stderr.contains("is a torrent: its info hash names it"), renewed.stderr)
        let toMagnet = try await haul("refresh", plainID, magnet)
        XCTAssertEqual(toMagnet.status, 2, toMagnet.stdout)
        XCTAssertTrue(toMagnet.stderr.contains("'haul add' takes a magnet link"), toMagnet.stderr)
        let after = try await listJSON()
        XCTAssertEqual(after.map { $0["url"] as? String }, listed.map { $0["url"] as? String }, "nothing changed")

        // A torrent's connections are its peers, at least two.
        let connections = try await haul("connections", "1", torrentID, plainID)
        XCTAssertEqual(connections.status, 0, connections.stderr)
        XCTAssertEqual(connections.stdout, "connections: 1 for 1 download(s); at most 2 peers for 1 torrent(s)\n")
        let tooMany = try await haul("connections", "40", torrentID, plainID)
        XCTAssertEqual(tooMany.status, 2, tooMany.stdout)
        XCTAssertTrue(tooMany.stderr.contains("connections must be between 1 and 32"), tooMany.stderr)
        // The limit each keeps is in the state file (`ls` shows the connections open).
        let saved = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        let kept = try XCTUnwrap(saved["downloads"] as? [[String: Any]])
        XCTAssertEqual(kept.first { $0["id"] as? String == plainID }?["connections"] as? Int, 1)
        XCTAssertEqual(kept.first { $0["id"] as? String == torrentID }?["connections"] as? Int, 2)
    }

    /// The bytes of the pieces a resume file says are on disk (0 while there is none).
    func haveBytes(_ path: String) -> Int64 {
        guard let data = FileManager.default.contents(atPath: path), let resume = Bencode([UInt8](data)),
            let pieces = resume["pieces"]?.bytes
        else { return 0 }
        return Int64(pieces.count { $0 & 1 != 0 }) * 65_536
    }
}

/// A seeder that sends corrupted pieces beside an honest one: libtorrent's hash checks keep the
/// file whole, and haul says which peer sent bad data.
final class TorrentCorruptSeederTests: TorrentTestCase {
    func testTheFileEndsIdenticalAndTheBadPieceIsNamed() async throws {
        let (torrent, hash) = try await seededFile("clean.bin", size: 4_000_000)
        // The liar's copy: every 64 KiB piece has a byte flipped; aria2c is told to seed it unchecked.
        let liar = dir.subdirectory("liar")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: seedData + "/clean.bin")))
        for piece in stride(from: 100, to: bytes.count, by: 65_536) { bytes[piece] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: liar + "/clean.bin"))
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: liar, verify: false)
        try await swarm.seedWithAria2(torrent, data: seedData, uploadLimit: "500K")
        try await swarm.waitForSeeders(2, of: hash)
        let added = try await haul("add", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try await haul("run", timeout: 120)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(sameFile(downloads + "/clean.bin", seedData + "/clean.bin"))
        let log = run.stdout + run.stderr
        XCTAssertTrue(log.contains("failed its hash check") || log.contains("sent data that failed hash checks"), log)
    }
}

/// On a metered network a torrent is a download like any other (it needs the allowance) and,
/// once finished, it does not seed.
final class TorrentMeteredTests: TorrentTestCase {
    func testATorrentWaitsForTheAllowanceAndDoesNotSeedWhileMetered() async throws {
        let (torrent, hash) = try await seededFile("paid.bin", size: 1_000_000)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        _ = try await haul("torrents", "--seed-ratio", "5")
        let metered = try await haul("metered", "on")
        XCTAssertEqual(metered.status, 0, metered.stderr)
        let daemon = try spawnHaul(["daemon"], log: dir.path + "/daemon.log")
        defer { Task { await daemon.terminate() } }
        let added = try await haul("add", torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        try await Task.sleep(for: .seconds(2))
        var rows = try await listJSON()
        XCTAssertEqual(rows.first?["receivedBytes"] as? Int, 0, "\(rows)")
        XCTAssertNotEqual(rows.first?["state"] as? String, "finished")
        let id = try XCTUnwrap(rows.first?["id"] as? String)
        let allowed = try await haul("resume", id, "--allow-metered")
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        try await waitUntil(timeout: 60) { self.sameFile(self.downloads + "/paid.bin", self.seedData + "/paid.bin") }
        try await Task.sleep(for: .seconds(2))
        rows = try await listJSON()
        XCTAssertEqual(rows.first?["state"] as? String, "finished")
        XCTAssertEqual(rows.first?["seeding"] as? Bool, false, "\(rows)")
        // Off the metered network, the daemon seeds it after all.
        let unmetered = try await haul("metered", "off")
        XCTAssertEqual(unmetered.status, 0, unmetered.stderr)
        try await waitUntil(timeout: 20) { (try? self.syncList().first?["seeding"] as? Bool) == true }
    }
}

/// A torrent into a file system without room for it: it waits for room, as a download over HTTP
/// does ("disk full — needs N more"), and goes on by itself once there is some.
final class TorrentDiskFullTests: TorrentTestCase {
    var small: String?

    override func tearDown() async throws {
        if let small { _ = try? await ChildProcess.run("/bin/umount", ["-l", small], environment: [:], in: "/tmp") }
        try await super.tearDown()
    }

    /// A tmpfs of `size` mounted for the test (unmounted in `tearDown`).
    func mountSmall(_ size: String) async throws -> String {
        try XCTSkipUnless(getuid() == 0, "mounting a small file system needs root (CI runs as root)")
        let small = dir.subdirectory("small")
        let mount = try await ChildProcess.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", small], environment: [:], in: dir.path)
        XCTAssertEqual(mount.status, 0, mount.stderr)
        self.small = small
        return small
    }

    /// The download's row, read synchronously for `waitUntil`.
    func row() -> [String: Any] { (try? syncList().first) ?? [:] }

    func testATorrentWaitsForRoomAndGoesOnOnceThereIsSome() async throws {
        let small = try await mountSmall("8m")
        let (torrent, hash) = try await seededFile("image.iso", size: 6_000_000)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: seedData)
        try await swarm.waitForSeeders(1, of: hash)
        // Room for half of it.
        let filler = small + "/filler"
        try TestFiles.random(filler, size: 5_000_000)
        let added = try await haul("add", "-d", small, torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try spawnHaul(["run"], log: dir.path + "/run.log")
        defer { run.signal(SIGKILL) }
        try await waitUntil(timeout: 60) { row()["state"] as? String == "paused" }
        // What it needs is its size less what its file already takes, which is all the room left.
        try await Task.sleep(for: .seconds(2.5))
        let waiting = row()
        let reason = waiting["reason"] as? String ?? ""
        XCTAssertTrue(reason.hasPrefix("disk full — needs ") && reason.hasSuffix(" more"), "\(waiting)")
        XCTAssertFalse(reason.contains("5.7 MiB"), "the part written counts as room taken: \(reason)")

        try FileManager.default.removeItem(atPath: filler)
        let ended = await run.wait(timeout: 90)
        XCTAssertEqual(ended, 0, (try? String(contentsOfFile: dir.path + "/run.log", encoding: .utf8)) ?? "")
        XCTAssertTrue(sameFile(small + "/image.iso", seedData + "/image.iso"))
    }

    /// The disk fills while the torrent writes: it stops there and goes on from its pieces.
    func testATorrentWhoseDiskFillsWhileItWritesWaitsAndGoesOn() async throws {
        let small = try await mountSmall("16m")
        let (torrent, hash) = try await seededFile("late.iso", size: 3_000_000)
        try await swarm.startTracker(allowing: [hash])
        try await swarm.seedWithAria2(torrent, data: seedData, uploadLimit: "300K")
        try await swarm.waitForSeeders(1, of: hash)
        let added = try await haul("add", "-d", small, torrent)
        XCTAssertEqual(added.status, 0, added.stderr)
        let run = try spawnHaul(["run"], log: dir.path + "/run.log")
        defer { run.signal(SIGKILL) }
        await ChaosFiles.waitForBytes(500_000, in: small, while: run)
        let filler = small + "/filler"
        TestFiles.fillFileSystem(filler)
        try await waitUntil(timeout: 60) { row()["state"] as? String == "paused" }
        let full = row()
        XCTAssertTrue((full["reason"] as? String)?.hasPrefix("disk full — needs ") ?? false, "\(full)")
        try FileManager.default.removeItem(atPath: filler)
        let ended = await run.wait(timeout: 90)
        XCTAssertEqual(ended, 0, (try? String(contentsOfFile: dir.path + "/run.log", encoding: .utf8)) ?? "")
        XCTAssertTrue(sameFile(small + "/late.iso", seedData + "/late.iso"))
    }
}
