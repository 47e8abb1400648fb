import Foundation
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

    /// A Metalink's URL became its first file and the others: the first added leads, in its
    /// folder only; a download alone under its first previous URL (a refreshed link) has none.
    func testTheDownloadsAURLBecameAreAFamilyLedByTheFirstAdded() throws {
        func download(_ id: String, in directory: String = "/d", from url: String?, at seconds: Double) -> Download {
            var d = Download(
                id: DownloadID(rawValue: id), url: "http://m/\(id)", directory: directory, queueOrder: 1,
                addedAt: Date(timeIntervalSince1970: seconds))
            d.previousURLs = url.map { [$0] } ?? []
            return d
        }
        let meta = "http://h/files.meta4"
        let second = download("000002", from: meta, at: 2)
        let first = download("000001", from: meta, at: 1)
        let third = download("000003", from: meta, at: 2)
        let group = [second, first, third]
        XCTAssertEqual(Aria2Family.key(of: first), Aria2Family.key(of: second))
        XCTAssertNotEqual(
            Aria2Family.key(of: first), Aria2Family.key(of: download("000004", in: "/e", from: meta, at: 1)))
        XCTAssertNil(Aria2Family.key(of: download("000005", from: nil, at: 1)))
        XCTAssertEqual(Aria2Family.of(first, among: group), Aria2Family(followedBy: [second.id, third.id]))
        XCTAssertEqual(Aria2Family.of(third, among: group), Aria2Family(following: first.id))
        XCTAssertNil(Aria2Family.of(first, among: [first]), "a refreshed link alone has no family")

        let status = Aria2Status.make(third, live: nil, keys: ["following"], family: Aria2Family(following: first.id))
        guard case .encoded(let bytes) = status else { return XCTFail("\(status)") }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), #"{"following":"0000000000000001"}"#)
        XCTAssertFalse(Aria2Family.isWanted(by: ["gid", "status"]))
        XCTAssertTrue(Aria2Family.isWanted(by: nil))
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
