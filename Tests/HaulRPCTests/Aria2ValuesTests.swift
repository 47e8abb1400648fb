import HaulCore
import XCTest

@testable import HaulAria2Wire
@testable import HaulRPC

/// How haul's values read as aria2's: GIDs, bitfields, error codes, notifications.
final class Aria2ValuesTests: XCTestCase {
    func testAGIDIsTheIDAfterZerosAndAnyOtherIDHashesToSixteenDigits() throws {
        XCTAssertEqual(GID.of(DownloadID(rawValue: "a1b2c3")), "0000000000a1b2c3")
        XCTAssertEqual(GID.directID("0000000000a1b2c3"), DownloadID(rawValue: "a1b2c3"))
        let odd = GID.of(DownloadID(rawValue: "Hand-Edited"))
        XCTAssertEqual(odd.count, 16)
        XCTAssertEqual(odd, GID.of(DownloadID(rawValue: "Hand-Edited")), "the same across calls and runs")
        XCTAssertNil(GID.directID(odd.hasPrefix("0000000000") ? "1" + odd.dropFirst() : odd))
        XCTAssertEqual(try GID.checked("00000000A1"), "00000000a1")
        XCTAssertThrowsError(try GID.checked("xyz"))
        XCTAssertThrowsError(try GID.checked(String(repeating: "a", count: 17)))
    }

    func testTheBitfieldSetsWholePiecesOnlyFirstPieceHighest() {
        let mib = Bitfield.pieceLength
        XCTAssertEqual(Bitfield.hex(total: 3 * mib, done: [0..<mib]), "80")
        XCTAssertEqual(Bitfield.hex(total: 3 * mib, done: [0..<(mib - 1)]), "00", "a piece not whole is not set")
        XCTAssertEqual(Bitfield.hex(total: 9 * mib + 5, done: [0..<(9 * mib + 5)]), "ffc0", "a short last piece")
        XCTAssertEqual(Bitfield.hex(total: 4 * mib, done: [(2 * mib)..<(4 * mib), 0..<mib]), "b0")
        XCTAssertEqual(Bitfield.pieces(total: 0), 0)
        XCTAssertEqual(Bitfield.hex(total: 0, done: []), "")
    }

    func testErrorCodesAreAria2sExitStatuses() {
        XCTAssertEqual(Aria2ErrorCode.of(.status(404)), 3)
        XCTAssertEqual(Aria2ErrorCode.of(.status(410)), 3)
        XCTAssertEqual(Aria2ErrorCode.of(.status(403)), 24)
        XCTAssertEqual(Aria2ErrorCode.of(.status(500)), 22)
        XCTAssertEqual(Aria2ErrorCode.of(.diskFull(shortfall: nil)), 9)
        XCTAssertEqual(Aria2ErrorCode.of(.tooManyRedirects(limit: 10)), 23)
    }

    func testEachChangeOfStateIsOneNotification() {
        XCTAssertEqual(Aria2Notification.forChange(from: .waiting, to: .downloading), Aria2Notification.start)
        XCTAssertEqual(Aria2Notification.forChange(from: .downloading, to: .paused), Aria2Notification.pause)
        XCTAssertEqual(Aria2Notification.forChange(from: .downloading, to: .finished), Aria2Notification.complete)
        XCTAssertEqual(Aria2Notification.forChange(from: .downloading, to: .failed), Aria2Notification.error)
        XCTAssertNil(Aria2Notification.forChange(from: .paused, to: .waiting), "aria2 says nothing until it starts")
        XCTAssertNil(Aria2Notification.forChange(from: .downloading, to: .downloading))
        XCTAssertEqual(Aria2Notification.forChange(from: nil, to: .downloading), Aria2Notification.start)
    }
}
