import XCTest

@testable import HaulCore

/// Where a torrent's pieces are on a web seed (BEP 19), without a network.
final class WebSeedLayoutTests: XCTestCase {
    let layout = WebSeedLayout(
        files: [
            .init(path: "set/a.bin", size: 10), .init(path: "set/.pad/6", size: 6, isPad: true),
            .init(path: "set/empty", size: 0), .init(path: "set/sub dir/b#c.bin", size: 20),
        ], pieceLength: 8, isSingleFile: false)

    func testAPieceIsTheFilesBytesItCoversInOrder() {
        XCTAssertEqual(layout.pieceCount, 5, "36 bytes in pieces of 8")
        XCTAssertEqual(layout.slices(ofPiece: 0), [.init(file: 0, range: 0..<8)])
        XCTAssertEqual(
            layout.slices(ofPiece: 1), [.init(file: 0, range: 8..<10), .init(file: 1, range: 0..<6)],
            "across a file's end; the empty file is skipped")
        XCTAssertEqual(layout.slices(ofPiece: 2), [.init(file: 3, range: 0..<8)])
        XCTAssertEqual(layout.range(ofPiece: 4), 32..<36, "the last piece is shorter")
        XCTAssertEqual(layout.slices(ofPiece: 4), [.init(file: 3, range: 16..<20)])
        XCTAssertEqual(layout.slices(ofPiece: 5), [])
    }

    func testAPieceIsWantedWhenItHoldsBytesOfAFetchedFileNotPadding() {
        XCTAssertTrue(layout.isWanted(piece: 1) { $0 == 0 })
        XCTAssertFalse(layout.isWanted(piece: 1) { $0 != 0 }, "padding alone is never asked for")
        XCTAssertFalse(layout.isWanted(piece: 3) { $0 == 0 })
    }

    func testEachFileIsUnderTheSeedByItsEncodedPath() {
        XCTAssertEqual(layout.url(of: 3, at: "http://h/seeds/"), "http://h/seeds/set/sub%20dir/b%23c.bin")
        XCTAssertEqual(layout.url(of: 0, at: "http://h/seeds"), "http://h/seeds/set/a.bin")
        let one = WebSeedLayout(files: [.init(path: "disk image.iso", size: 5)], pieceLength: 4, isSingleFile: true)
        XCTAssertEqual(one.url(of: 0, at: "http://h/isos/"), "http://h/isos/disk%20image.iso")
        XCTAssertEqual(
            one.url(of: 0, at: "http://h/mirror/x.iso"), "http://h/mirror/x.iso", "the seed's URL is the file")
    }
}
