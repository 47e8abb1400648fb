import Foundation
import XCTest

@testable import HaulCore

/// The pure parts of speed limits and the data budget: the token bucket, windows, budgets and
/// periods, the clock override, and every hold the policy makes and lifts.
final class BandwidthPolicyTests: XCTestCase {
    func testTheBucketHoldsTheRateAndForgetsDebtWhenTheRateChanges() {
        var bucket = TokenBucket(rate: 1_000_000, now: .zero)
        XCTAssertEqual(
            bucket.take(500_000, now: .zero).seconds, 0.5, accuracy: 1e-9, "no credit at the start: no burst")
        XCTAssertEqual(bucket.take(500_000, now: .milliseconds(500)).seconds, 0.5, accuracy: 1e-9)
        // Readers that took 10 MB over 10 s were held to exactly the rate.
        var time = Duration.seconds(1)
        var taken = 0
        while time < .seconds(11) {
            let wait = bucket.take(64 * 1024, now: time)
            taken += 64 * 1024
            time += wait
        }
        XCTAssertEqual(Double(taken + 1_000_000) / time.seconds, 1_000_000, accuracy: 10_000)
        bucket.setRate(4_000_000, now: time)
        XCTAssertEqual(bucket.take(400_000, now: time).seconds, 0.1, accuracy: 1e-9, "old debt is forgotten")
        bucket.setRate(nil, now: time)
        XCTAssertEqual(bucket.take(1 << 30, now: time), .zero)
    }

    func testTheRateTakenIsMeasuredOverTwoSecondsWhateverTheBursts() {
        var bucket = TokenBucket(rate: 3_000_000, now: .zero)
        XCTAssertNil(bucket.takenRate, "nothing measured yet")
        // A server that sends a second's worth at once: 1 MB, then nothing for a second.
        var waited = false
        for second in 0..<4 {
            waited = bucket.take(1_000_000, now: .seconds(second)) > .zero || waited
        }
        XCTAssertTrue(waited, "each burst is more than the bucket's credit")
        XCTAssertEqual(try XCTUnwrap(bucket.takenRate), 1_000_000, accuracy: 1, "a third of the rate")
        bucket.setRate(2_000_000, now: .seconds(4))
        XCTAssertNil(bucket.takenRate, "a new rate is measured anew")
    }

    func testIdleCreditIsATenthOfASecond() {
        var bucket = TokenBucket(rate: 1_000_000, now: .zero)
        XCTAssertEqual(bucket.take(100_000, now: .seconds(60)), .zero, "a tenth of a second saved up")
        XCTAssertEqual(bucket.take(100_000, now: .seconds(60)).seconds, 0.1, accuracy: 1e-9, "and no more")
    }

    func testWindowsParseAndMayRunPastMidnight() {
        let day = DailyWindow("08:00-23:00")!
        XCTAssertEqual(day.description, "08:00-23:00")
        XCTAssertTrue(day.contains(minute: 8 * 60))
        XCTAssertFalse(day.contains(minute: 23 * 60), "the end is outside")
        XCTAssertFalse(day.contains(minute: 7 * 60 + 59))
        let night = DailyWindow("23:30-7:00")!
        XCTAssertTrue(night.contains(minute: 23 * 60 + 45))
        XCTAssertTrue(night.contains(minute: 60))
        XCTAssertFalse(night.contains(minute: 12 * 60))
        for bad in ["", "8-9", "08:00", "24:00-01:00", "08:60-09:00", "09:00-09:00", "a:bc-01:00"] {
            XCTAssertNil(DailyWindow(bad), bad)
        }
    }

    func testALimitWithAWindowAppliesOnlyInsideIt() {
        let limit = SpeedLimit(rate: 2 << 20, window: DailyWindow("08:00-23:00"))
        XCTAssertEqual(limit.rate(atMinute: 9 * 60), 2 << 20)
        XCTAssertNil(limit.rate(atMinute: 23 * 60 + 30))
        XCTAssertEqual(limit.label, "2.0 MiB/s during 08:00-23:00")
        XCTAssertEqual(SpeedLimit(rate: 0, window: DailyWindow("09:00-17:00")).label, "held during 09:00-17:00")
        XCTAssertEqual(SpeedLimit(rate: 512 * 1024).rate(atMinute: 0), 512 * 1024)
        XCTAssertNil(SpeedLimit.problem(with: 0), "0 holds downloads")
        XCTAssertNotNil(SpeedLimit.problem(with: 1000))
        XCTAssertNil(SpeedLimit.problem(with: 16 * 1024))
    }

    func testRatesAreReadAsCurlWritesThem() {
        XCTAssertEqual(Formatting.parseRate("500K"), 500 * 1024)
        XCTAssertEqual(Formatting.parseRate("8M"), 8 << 20)
        XCTAssertEqual(Formatting.parseRate("1.5M"), 3 << 19)
        XCTAssertEqual(Formatting.parseRate("2MiB/s"), 2 << 20)
        XCTAssertEqual(Formatting.parseRate("0"), 0)
        XCTAssertNil(Formatting.parseRate("fast"))
        XCTAssertNil(Formatting.parseRate("-1M"))
    }

    func testBudgetsAndTheirPeriods() {
        XCTAssertEqual(DataBudget("8M/day"), DataBudget(bytes: 8 << 20, period: .day))
        XCTAssertEqual(DataBudget("10G/month")?.period, .month)
        XCTAssertEqual(DataBudget("8M/day")?.label, "8.0 MiB/day")
        for bad in ["8M", "8M/week", "0/day", "/day", "x/month"] { XCTAssertNil(DataBudget(bad), bad) }
        let utc = LocalZone(tz: "UTC")
        let date = Date(timeIntervalSince1970: 1_796_083_195) // 2026-11-30 23:59:55 UTC
        XCTAssertEqual(BudgetPeriod.day.key(for: date, in: utc), "2026-11-30")
        XCTAssertEqual(BudgetPeriod.day.key(for: date + 10, in: utc), "2026-12-01")
        XCTAssertEqual(BudgetPeriod.month.key(for: date, in: utc), "2026-11")
        XCTAssertEqual(BudgetPeriod.month.key(for: date + 10, in: utc), "2026-12")
    }

    func testTheClockOverrideStartsAtTheGivenLocalTime() {
        let clock = WallClock(environment: ["HAUL_CLOCK": "2026-11-26T23:59:55", "TZ": "JST-9"])
        XCTAssertEqual(clock.now().timeIntervalSince1970, 1_795_705_195, accuracy: 1, "14:59:55 UTC")
        XCTAssertEqual(clock.minuteOfDay(clock.now()), 23 * 60 + 59)
        XCTAssertEqual(BudgetPeriod.day.key(for: clock.now(), in: clock.zone), "2026-11-26")
        XCTAssertEqual(BudgetPeriod.day.key(for: clock.now() + 6, in: clock.zone), "2026-11-27")
        let real = WallClock(environment: [:])
        XCTAssertEqual(real.now().timeIntervalSinceNow, 0, accuracy: 1)
    }

    func testTheStatusCombinesTheLimitAndTheMeteredCap() {
        var status = NetworkStatus(mode: .on, limit: 1 << 20)
        XCTAssertEqual(status.rateInForce, 1 << 20)
        status.speedLimit = SpeedLimit(rate: 512 * 1024)
        status.speedLimitActive = true
        XCTAssertEqual(status.rateInForce, 512 * 1024, "the lower of the two while metered")
        status.mode = .off
        XCTAssertEqual(status.rateInForce, 512 * 1024)
        status.speedLimitActive = false
        XCTAssertNil(status.rateInForce)
        status.speedLimit = SpeedLimit(rate: 0, window: DailyWindow("09:00-17:00"))
        status.speedLimitActive = true
        XCTAssertNil(status.rateInForce, "a 0 holds downloads instead of throttling them")
        XCTAssertEqual(status.speedLimitLabel, "held during 09:00-17:00")
        status.speedLimitActive = false
        XCTAssertEqual(status.speedLimitLabel, "held during 09:00-17:00 (not now)")
        status.budget = DataBudget(bytes: 8 << 20, period: .day)
        status.budgetUsed = 8 << 20
        XCTAssertTrue(status.budgetUsedUp)
        XCTAssertEqual(status.budgetLabel, "8.0 MiB of 8.0 MiB today")
    }

    // MARK: Holds

    func download(_ id: String, _ kind: DownloadState.Kind, cause: PauseCause.Kind? = nil, allowed: Bool = false)
        -> Download
    {
        var d = Download(
            id: DownloadID(rawValue: id), url: "http://h/\(id)", directory: "/tmp", allowMetered: allowed, queueOrder: 0
        )
        d.state = DownloadState.Parts(kind: kind, pauseCause: cause).resolved
        return d
    }

    func testABudgetUsedUpHoldsTheAllowedDownloadsAndLiftsWhenItIsNot() {
        let all = [
            download("run-a", .downloading, allowed: true), download("run-n", .downloading),
            download("bud-a", .paused, cause: .budget, allowed: true),
            download("usr-a", .paused, cause: .user, allowed: true),
        ]
        let used = HoldPolicy.decide(all, HoldConditions(metered: true, budgetUsedUp: true))
        XCTAssertEqual(
            used.pause,
            [
                .init(id: DownloadID(rawValue: "run-a"), cause: .budget),
                .init(id: DownloadID(rawValue: "run-n"), cause: .metered),
            ])
        XCTAssertEqual(used.resume, [])
        let fresh = HoldPolicy.decide(all, HoldConditions(metered: true))
        XCTAssertEqual(fresh.resume.map(\.rawValue), ["bud-a"], "a new period or a higher budget resumes it")
        let unmetered = HoldPolicy.decide(all, HoldConditions(metered: false, budgetUsedUp: true))
        XCTAssertEqual(unmetered.resume.map(\.rawValue), ["bud-a"], "the budget counts only while metered")
        XCTAssertEqual(unmetered.pause, [])
    }

    func testAScheduleOfZeroHoldsEverythingAndGivesTheCauseBack() {
        let all = [
            download("run", .downloading), download("met", .paused, cause: .metered),
            download("disk", .paused, cause: .diskFull), download("usr", .paused, cause: .user),
        ]
        let held = HoldPolicy.decide(all, HoldConditions(metered: true, scheduleHolds: true))
        XCTAssertEqual(held.pause.map(\.cause), [.schedule, .schedule], "a metered hold becomes the schedule's")
        XCTAssertEqual(held.pause.map(\.id.rawValue), ["run", "met"])
        var d = download("met", .paused, cause: .metered)
        XCTAssertTrue(d.pause(.schedule(until: 17 * 60)))
        XCTAssertEqual(d.pauseCause, .schedule(until: 17 * 60))
        XCTAssertFalse(d.pause(.schedule(until: nil)), "the same hold again changes nothing")
        XCTAssertEqual(d.reason, "held by the speed limit's schedule until 17:00", "the cause says until when")
        XCTAssertTrue(d.isHeld)
        XCTAssertTrue(d.resumeFromPolicy(.schedule))
        XCTAssertEqual(d.state, .waiting)
        var user = download("usr", .paused, cause: .user)
        XCTAssertFalse(user.pause(.schedule(until: nil)), "a user's pause stays the user's")
    }

    func testTheBudgetReasonIsASentence() throws {
        var d = download("b", .downloading, allowed: true)
        XCTAssertTrue(d.pause(.budget(nil)))
        XCTAssertEqual(d.reason, "metered data budget used up")
        var used = download("u", .downloading, allowed: true)
        XCTAssertTrue(used.pause(.budget(BudgetUse(used: 8 << 20, budget: 8 << 20, period: .day))))
        XCTAssertEqual(used.reason, "metered data budget used: 8.0 MiB of 8.0 MiB today")
        // An older haul's hold notices still read (into the cause, see the schema's tests).
        let older = Notice.budgetUsed(used: 8 << 20, budget: 8 << 20, period: .day)
        XCTAssertEqual(try JSONDecoder().decode(Notice.self, from: JSONEncoder().encode(older)), older)
        let until = Notice.heldUntil(minute: 61)
        XCTAssertEqual(try JSONDecoder().decode(Notice.self, from: JSONEncoder().encode(until)), until)
    }
}
