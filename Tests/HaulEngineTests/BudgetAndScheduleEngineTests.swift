import Foundation
import HaulCore
import HaulTestSupport
import XCTest

@testable import HaulEngine

/// The metered data budget and the speed limit's daily windows, against nginx on loopback, with
/// the wall clock set through `HAUL_CLOCK` a few seconds before midnight or a window's edge, and a
/// test clock that the test moves past it once what it checks before has happened.
final class BudgetAndScheduleEngineTests: EngineTestCase {
    var nginx: NginxServer!
    var www: String!
    let clock = TestClock()

    override func setUp() async throws {
        try await super.setUp()
        www = dir.subdirectory("www")
        nginx = try await NginxServer(root: www, slowRate: "4m", workDirectory: dir.subdirectory("nginx"))
    }

    override func tearDown() async throws {
        await nginx?.stop()
        try await super.tearDown()
    }

    /// Today (UTC) at `time`, as `HAUL_CLOCK` takes it.
    func today(at time: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02dT", c.year!, c.month!, c.day!) + time
    }

    func engine(clock: String? = nil) throws -> Engine {
        try makeEngine {
            $0.clock = self.clock
            $0.environment = ["TZ": "UTC"]
            if let clock { $0.environment["HAUL_CLOCK"] = today(at: clock) }
        }
    }

    func addAllowed(_ engine: Engine, _ path: String) async throws -> DownloadID {
        try await engine.perform(
            .add([DownloadRequest(url: nginx.url(path), directory: downloadDirectory, allowMetered: true)]))[0]
    }

    /// The times a daemon records while no UI is attached come from the engine's clock too: the
    /// report starts when the engine does, a download added and finished an hour and a half
    /// later is dated then, without waiting an hour and a half.
    func testTheAwayReportAndADownloadsDatesFollowTheEnginesClock() async throws {
        try TestFiles.random(www + "/away.bin", size: 100_000)
        let engine = try makeEngine {
            $0.clock = self.clock
            $0.environment = ["TZ": "UTC", "HAUL_CLOCK": today(at: "12:00:00")]
            $0.recordsAway = true
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: Date())!
        clock.advance(by: .seconds(90 * 60))
        let id = try await add(engine, nginx.url("away.bin"))
        await engine.start()
        let done = try await waitFor(engine, id) { $0.state == .finished }
        let later = noon.addingTimeInterval(90 * 60)
        XCTAssertEqual(done.addedAt.timeIntervalSince(later), 0, accuracy: 30)
        XCTAssertEqual(try XCTUnwrap(done.finishedAt).timeIntervalSince(later), 0, accuracy: 30)
        let attached = await engine.attachUI()
        let report = try XCTUnwrap(attached, "a UI attaching gets what happened")
        XCTAssertEqual(report.since.timeIntervalSince(noon), 0, accuracy: 30, "the report began with the engine")
        XCTAssertEqual(report.entries.map(\.id), [id])
        XCTAssertEqual(try XCTUnwrap(report.entries.first).at.timeIntervalSince(later), 0, accuracy: 30)
    }

    func testABudgetStopsAnAllowedDownloadAtItAndLiftingItResumes() async throws {
        try TestFiles.random(www + "/budget.bin", size: 32 << 20)
        let engine = try engine()
        try await engine.perform(.setMeteredMode(.on))
        try await engine.perform(.setMeteredBudget(DataBudget(bytes: 8 << 20, period: .day)))
        let id = try await addAllowed(engine, "budget.bin")
        await engine.start()
        // A download in pieces reports its bytes once the map its pause saves has reached the engine.
        let held = try await waitFor(engine, id) { $0.state.isPaused && $0.receivedBytes > 0 }
        XCTAssertEqual(held.pauseCause?.kind, .budget)
        XCTAssertEqual(held.reason, "metered data budget used: 8.0 MiB of 8.0 MiB today")
        XCTAssertEqual(Double(held.receivedBytes), Double(8 << 20), accuracy: Double(1 << 20), "stopped at the budget")
        let status = await engine.networkStatus
        XCTAssertEqual(Double(status.budgetUsed), Double(8 << 20), accuracy: Double(1 << 20))
        try await Task.sleep(for: .milliseconds(600))
        let still = await engine.download(id)
        XCTAssertEqual(still?.state.kind, .paused, "it stays paused while the budget is used")

        try await engine.perform(.setMeteredBudget(nil))
        let done = try await finished(engine, id)
        XCTAssertEqual(done.state, .finished)
        assertSameContents(done.path!, www + "/budget.bin")
    }

    func testTheCountStartsAgainAtMidnight() async throws {
        try TestFiles.random(www + "/night.bin", size: 24 << 20)
        let engine = try engine(clock: "23:59:57")
        try await engine.perform(.setMeteredMode(.on))
        try await engine.perform(.setMeteredBudget(DataBudget(bytes: 4 << 20, period: .day)))
        let id = try await addAllowed(engine, "night.bin")
        await engine.start()
        let first = try await waitFor(engine, id, timeout: 2.5) { $0.state.isPaused && $0.receivedBytes > 0 }
        XCTAssertEqual(first.pauseCause?.kind, .budget)
        // Midnight: a new day's budget, and the download goes on.
        clock.advance(by: .seconds(5))
        let second = try await waitFor(engine, id, timeout: 10) {
            $0.state.isPaused && $0.receivedBytes > 6 << 20
        }
        XCTAssertEqual(second.pauseCause?.kind, .budget)
        XCTAssertEqual(Double(second.receivedBytes), Double(8 << 20), accuracy: Double(1 << 20), "two days' budgets")
        let status = await engine.networkStatus
        XCTAssertEqual(Double(status.budgetUsed), Double(4 << 20), accuracy: Double(1 << 20), "today's count only")
        try await engine.perform(.setMeteredMode(.off))
        let done = try await finished(engine, id)
        assertSameContents(done.path!, www + "/night.bin")
    }

    func testTheRateFollowsTheClockAcrossAWindowsEdge() async throws {
        try TestFiles.random(www + "/edge.bin", size: 24 << 20)
        let engine = try engine(clock: "08:59:56")
        try await engine.perform(
            .setSpeedLimit(SpeedLimit(rate: 1 << 20, window: DailyWindow("08:00-09:00"))))
        let id = try await add(engine, nginx.url("edge.bin"))
        await engine.start()
        try await waitFor(engine, id) { $0.receivedBytes > 0 }
        let start = SystemClock().now.seconds
        let before = await engine.download(id)?.receivedBytes ?? 0
        try await Task.sleep(for: .seconds(2))
        let after = await engine.download(id)?.receivedBytes ?? 0
        let inside = Double(after - before) / (SystemClock().now.seconds - start)
        XCTAssertEqual(inside / Double(1 << 20), 1, accuracy: 0.1, "inside the window: the limit")
        let active = await engine.networkStatus.speedLimitActive
        XCTAssertTrue(active)
        // At 09:00 the window ends: the rest of the file comes at loopback speed.
        clock.advance(by: .seconds(5))
        let done = try await finished(engine, id, timeout: 6)
        XCTAssertEqual(done.state, .finished)
        let inactive = await engine.networkStatus.speedLimitActive
        XCTAssertFalse(inactive)
        assertSameContents(done.path!, www + "/edge.bin")
    }

    func testALimitOfZeroHoldsDownloadsUntilItsWindowEnds() async throws {
        try TestFiles.random(www + "/held.bin", size: 1 << 20)
        let engine = try engine(clock: "16:59:57")
        try await engine.perform(.setSpeedLimit(SpeedLimit(rate: 0, window: DailyWindow("09:00-17:00"))))
        let id = try await add(engine, nginx.url("held.bin"))
        await engine.start()
        let held = try await waitFor(engine, id, timeout: 1) { $0.state.isPaused }
        XCTAssertEqual(held.pauseCause?.kind, .schedule)
        XCTAssertEqual(held.reason, "held by the speed limit's schedule until 17:00")
        clock.advance(by: .seconds(5))
        let done = try await finished(engine, id, timeout: 8)
        XCTAssertEqual(done.state, .finished)
        XCTAssertNil(done.notice)
        assertSameContents(done.path!, www + "/held.bin")
    }
}
