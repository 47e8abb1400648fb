import Foundation
import HaulCore
import XCTest

/// haul reads local time and HTTP dates without ICU: its calendar arithmetic is checked here
/// against Foundation's ICU calendar, which the test process links.
final class LocalTimeTests: XCTestCase {
    func testCivilFieldsAgreeWithFoundationsCalendarAcrossCenturies() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var rng = SystemRandomNumberGenerator()
        // Leap days, century years and the epoch itself, then random moments from 1601 to 9999.
        var moments = [0, -1, 951_782_400, 4_107_542_400, -11_644_473_600, 253_402_300_799]
        moments += (0..<2000).map { _ in Int.random(in: -11_644_473_600...253_402_300_799, using: &rng) }
        for seconds in moments {
            let civil = CivilDate(secondsSince1970: seconds)
            let c = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
            let expected = CivilDate(
                year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!, second: c.second!)
            XCTAssertEqual(civil, expected, "\(seconds)")
            XCTAssertEqual(civil.secondsSince1970, seconds, "\(seconds) back and forth")
        }
    }

    func testDaysThatDoNotExistAreRefused() {
        XCTAssertFalse(CivilDate(year: 2026, month: 2, day: 29).isValid)
        XCTAssertTrue(CivilDate(year: 2024, month: 2, day: 29).isValid)
        XCTAssertFalse(CivilDate(year: 1900, month: 2, day: 29).isValid)
        XCTAssertTrue(CivilDate(year: 2000, month: 2, day: 29).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 4, day: 31).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 13, day: 1).isValid)
        XCTAssertFalse(CivilDate(year: 2026, month: 1, day: 1, hour: 24).isValid)
    }

    func testTheSystemZoneReadsTheSameLocalTimeAsFoundation() {
        // Whatever zone this machine is in, the C library and ICU agree on its local time.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        for seconds in stride(from: 1_767_225_600, to: 1_798_761_600, by: 86_400 * 7 + 3_607) {
            let date = Date(timeIntervalSince1970: Double(seconds))
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let local = LocalZone.system.civil(date)
            XCTAssertEqual(
                [local.year, local.month, local.day, local.hour, local.minute, local.second],
                [c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!], "\(date)")
            XCTAssertEqual(LocalZone.system.date(local), date)
        }
    }

    func testFixedZonesFromTZ() {
        XCTAssertEqual(LocalZone(tz: "UTC"), .fixed(secondsEastOfUTC: 0))
        XCTAssertEqual(LocalZone(tz: "JST-9"), .fixed(secondsEastOfUTC: 9 * 3_600))
        XCTAssertEqual(LocalZone(tz: "IST-5:30"), .fixed(secondsEastOfUTC: 5 * 3_600 + 1_800))
        XCTAssertEqual(LocalZone(tz: "EST5"), .fixed(secondsEastOfUTC: -5 * 3_600))
        XCTAssertEqual(LocalZone(tz: "EST5EDT"), .system, "rules for daylight saving: the C library's")
        XCTAssertEqual(LocalZone(tz: "Europe/Berlin"), .system)
        XCTAssertEqual(LocalZone(tz: nil), .system)
        let tokyo = LocalZone(tz: "JST-9")
        let date = Date(timeIntervalSince1970: 1_795_705_195) // 2026-11-26 14:59:55 UTC
        XCTAssertEqual(tokyo.civil(date), CivilDate(year: 2026, month: 11, day: 26, hour: 23, minute: 59, second: 55))
        XCTAssertEqual(tokyo.date(CivilDate(year: 2026, month: 11, day: 26, hour: 23, minute: 59, second: 55)), date)
    }

    func testTheFormsOfAnHTTPDate() {
        let expected = Date(timeIntervalSince1970: 784_111_777) // RFC 9110's example
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06-Nov-1994 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994", "sun, 06 nov 1994 08:49:37 GMT",
        ] {
            XCTAssertEqual(HTTPDate.parse(text), expected, text)
        }
        XCTAssertEqual(HTTPDate.parse("Thu, 01 Jan 2070 00:00:00 GMT"), Date(timeIntervalSince1970: 3_155_760_000))
        XCTAssertEqual(HTTPDate.parse("Wed, 01-Jan-69 00:00:00 GMT"), Date(timeIntervalSince1970: 3_124_224_000))
        for bad in [
            "", "Sun, 06 Nov 1994", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 06 Foo 1994 08:49:37 GMT", "soon",
        ] {
            XCTAssertNil(HTTPDate.parse(bad), bad)
        }
    }
}
