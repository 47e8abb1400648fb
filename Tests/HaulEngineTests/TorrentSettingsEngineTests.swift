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
