import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// What the BitTorrent session is given as the network changes: on a metered network DHT goes
/// quiet (the saved setting stays on) and comes back when it is unmetered again.
final class TorrentSettingsEngineTests: EngineTestCase {
    func testWhileMeteredDHTIsQuietAndTheSavedSettingStays() async throws {
        let engine = try makeEngine()
        await engine.start()
        let before = await engine.effectiveTorrentSettings.dht
        XCTAssertTrue(before, "on by default, as in aria2")
        try await engine.perform(.setMeteredMode(.on))
        var quiet = false
        for _ in 0..<50 where !quiet {
            quiet = await !engine.effectiveTorrentSettings.dht
            if !quiet { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertTrue(quiet, "DHT goes quiet while metered")
        let saved = await engine.snapshot().torrents?.dht ?? TorrentSettings().dht
        XCTAssertTrue(saved, "the user's setting is kept")
        try await engine.perform(.setMeteredMode(.off))
        var back = false
        for _ in 0..<50 where !back {
            back = await engine.effectiveTorrentSettings.dht
            if !back { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertTrue(back, "unmetered again, DHT is back")
        await engine.shutdown()
    }
}

/// The details a UI opens say which seed goal holds for a torrent: its own ratio or time over
/// the saved settings', part by part.
final class TorrentSeedGoalDetailsTests: EngineTestCase {
    func testATorrentsDetailsCarryTheSeedGoalThatHoldsForIt() async throws {
        let engine = try makeEngine()
        var saved = TorrentSettings()
        saved.seedRatio = 2
        saved.seedMinutes = 90
        try await engine.perform(.setTorrentSettings(saved))
        var request = DownloadRequest(url: "zeros.torrent", directory: dir.path, paused: true)
        request.metainfo = TorrentSessionTests.torrent()
        request.seedGoal = SeedGoal(minutes: 30)
        let id = try await engine.perform(.add([request]))[0]
        let details = await engine.torrentDetails(id)
        XCTAssertEqual(details?.seedingGoal, SeedGoal(ratio: 2, minutes: 30), "its own time, the saved ratio")
        await engine.shutdown()
    }
}
