import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// The metered-network policy acting on running transfers, against nginx on loopback.
final class MeteredEngineTests: EngineTestCase {
    var nginx: NginxServer!
    var www: String!

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "300k", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    func addSlow(_ engine: Engine, _ name: String, allowed: Bool) async throws -> DownloadID {
        try TestFiles.random(www + "/" + name, size: 1_200_000)
        return try await engine.perform(
            .add([DownloadRequest(url: nginx.url("slow/" + name), directory: downloadDirectory, allowMetered: allowed)])
        )[0]
    }

    func received(_ engine: Engine, _ id: DownloadID) async -> Int64 { await engine.download(id)?.receivedBytes ?? -1 }

    func testTurningMeteredOnPausesWhatIsNotAllowedAndOffResumesIt() async throws {
        let engine = try makeEngine()
        let blocked = try await addSlow(engine, "blocked.bin", allowed: false)
        let allowed = try await addSlow(engine, "allowed.bin", allowed: true)
        await engine.start()
        try await waitFor(engine, blocked) { $0.receivedBytes > 50_000 }
        try await waitFor(engine, allowed) { $0.receivedBytes > 50_000 }

        try await engine.perform(.setMeteredMode(.on))
        let paused = try await waitFor(engine, blocked, timeout: 1) { $0.state.isPaused }
        XCTAssertEqual(paused.pauseCause, .metered)
        XCTAssertEqual(paused.reason, "waiting for unmetered network")
        let part = try XCTUnwrap(paused.partPath)
        let frozen = PartFile.size(at: part)
        let allowedBefore = await received(engine, allowed)
        try await Task.sleep(for: .milliseconds(700))
        XCTAssertEqual(PartFile.size(at: part), frozen, "the paused one stopped writing")
        let allowedAfter = await received(engine, allowed)
        XCTAssertGreaterThan(allowedAfter, allowedBefore, "the allowed one goes on")
        let downloading = await engine.download(allowed)?.state
        XCTAssertEqual(downloading, .downloading)

        try await engine.perform(.setMeteredMode(.off))
        let a = try await finished(engine, blocked)
        let b = try await finished(engine, allowed)
        assertSameContents(a.path!, www + "/blocked.bin")
        assertSameContents(b.path!, www + "/allowed.bin")
        let resumedRange = nginx.accessLog().filter { $0.uri == "/slow/blocked.bin" }.last?.range
        XCTAssertEqual(resumedRange, "bytes=\(frozen!)-")
    }

    func testUserPausesSurviveTheNetworkBecomingUnmetered() async throws {
        let engine = try makeEngine()
        let id = try await addSlow(engine, "a.bin", allowed: false)
        await engine.start()
        try await engine.perform(.pause(.ids([id])))
        try await engine.perform(.setMeteredMode(.on))
        try await engine.perform(.setMeteredMode(.off))
        let d = await engine.download(id)
        XCTAssertEqual(d?.state.kind, .paused)
        XCTAssertEqual(d?.pauseCause, .user)
    }

    func testWaitingDownloadsDoNotStartWhileMeteredAndNewOnesWait() async throws {
        let engine = try makeEngine()
        try await engine.perform(.setMeteredMode(.on))
        let id = try await addSlow(engine, "a.bin", allowed: false)
        await engine.start()
        let d = await engine.download(id)
        XCTAssertEqual(d?.state.kind, .paused)
        XCTAssertEqual(d?.pauseCause, .metered)
        XCTAssertEqual(nginx.accessLog().count, 0, "nothing was requested")
        try await engine.perform(.allowMetered(.ids([id]), true))
        let running = try await waitFor(engine, id, timeout: 2) { $0.state == .downloading }
        XCTAssertTrue(running.allowMetered)
    }

    func testAutoModeFollowsTheProbe() async throws {
        let verdict = dir.path + "/verdict"
        try "no".write(toFile: verdict, atomically: true, encoding: .utf8)
        let engine = try makeEngine {
            $0.environment = ["HAUL_METERED_PROBE": "cat \(verdict)", "PATH": "/usr/bin:/bin"]
            $0.meteredProbeInterval = .seconds(0.2)
        }
        try await engine.perform(.setMeteredMode(.auto))
        let id = try await addSlow(engine, "a.bin", allowed: false)
        await engine.start()
        let unmetered = await engine.networkStatus
        XCTAssertEqual(unmetered.label, "auto (unmetered)")
        try await waitFor(engine, id) { $0.receivedBytes > 30_000 }

        try "yes".write(toFile: verdict, atomically: true, encoding: .utf8)
        try await waitFor(engine, id, timeout: 1.5) { $0.state.isPaused && $0.pauseCause == .metered }
        let metered = await engine.networkStatus
        XCTAssertEqual(metered.label, "auto (metered)")

        try "u 2".write(toFile: verdict, atomically: true, encoding: .utf8)
        let done = try await finished(engine, id)
        assertSameContents(done.path!, www + "/a.bin")
    }

    func testAutoWithoutNetworkManagerIsUnmeteredAndSaysUnknown() async throws {
        let engine = try makeEngine { $0.environment = ["HAUL_METERED_PROBE": "exit 1"] }
        try await engine.perform(.setMeteredMode(.auto))
        let status = await engine.networkStatus
        XCTAssertEqual(status.label, "auto (unknown)")
        XCTAssertFalse(status.isMetered)
    }

    func testAProbeThatNeverAnswersIsStoppedAndCountsAsUnknown() async throws {
        // `sleep` with an odd length, to find this very child in the process table afterwards.
        let engine = try makeEngine {
            $0.environment = ["HAUL_METERED_PROBE": "exec sleep 31.4159", "PATH": "/usr/bin:/bin"]
        }
        let started = Date()
        try await engine.perform(.setMeteredMode(.auto))
        let status = await engine.networkStatus
        XCTAssertEqual(status.label, "auto (unknown)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "given up after its 2 s, not waited out")
        try await Task.sleep(for: .milliseconds(200))
        let left = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { entry in
            guard let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
            return String(decoding: command, as: UTF8.self).contains("31.4159")
        }
        XCTAssertEqual(left, [], "the probe was stopped")
    }

    func testSpeedCapForAllowedDownloadsWhileMetered() async throws {
        try TestFiles.random(www + "/fast.bin", size: 20 << 20)
        let engine = try makeEngine()
        try await engine.perform(.setMeteredMode(.on))
        try await engine.perform(.setMeteredLimit(100 * 1024))
        let id = try await engine.perform(
            .add([DownloadRequest(url: nginx.url("fast.bin"), directory: downloadDirectory, allowMetered: true)]))[0]
        await engine.start()
        try await Task.sleep(for: .seconds(2))
        let capped = await received(engine, id)
        XCTAssertGreaterThan(capped, 0)
        XCTAssertLessThan(capped, 1_000_000, "about 100 KiB/s plus one read of slack, not 20 MiB")
        try await engine.perform(.setMeteredMode(.off))
        let done = try await finished(engine, id)
        assertSameContents(done.path!, www + "/fast.bin")
        do {
            try await engine.perform(.setMeteredLimit(1000))
            XCTFail("a cap below the minimum is refused")
        } catch {
            XCTAssertTrue(error.message.contains("at least"))
        }
    }

    /// The cap holds across many small files, whether a body is written as it arrives or had
    /// arrived whole before its task chose to write it (`CleartextConnectionHandlerTests` pins the latter).
    func testSpeedCapHoldsForManySmallFiles() async throws {
        let engine = try makeEngine()
        try await engine.perform(.setMeteredMode(.on))
        try await engine.perform(.setMeteredLimit(100 * 1024))
        var requests: [DownloadRequest] = []
        for i in 0..<6 {
            try TestFiles.random(www + "/small\(i).bin", size: 60 * 1024)
            requests.append(
                DownloadRequest(url: nginx.url("small\(i).bin"), directory: downloadDirectory, allowMetered: true))
        }
        let ids = try await engine.perform(.add(requests))
        let started = SystemClock().now.seconds
        await engine.start()
        for (i, id) in ids.enumerated() {
            let done = try await finished(engine, id, timeout: 30)
            assertSameContents(done.path!, www + "/small\(i).bin")
        }
        // 360 KiB at 100 KiB/s, less the cap's one second of burst: at least 2.6 s.
        XCTAssertGreaterThan(SystemClock().now.seconds - started, 2.4, "the cap held the small files back")
    }
}
