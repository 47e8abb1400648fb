import Foundation
import HaulCore
import XCTest

@testable import HaulRemote

final class LineFramerTests: XCTestCase {
    func testLinesSplitAcrossChunksComeOutWhole() throws {
        var framer = LineFramer(maxLineLength: 100)
        framer.append(Array("{\"a\":1}\n{\"b\"".utf8))
        XCTAssertEqual(try framer.nextLine().map { String(decoding: $0, as: UTF8.self) }, "{\"a\":1}")
        XCTAssertNil(try framer.nextLine())
        framer.append(Array(":2}\n\n".utf8))
        XCTAssertEqual(try framer.nextLine().map { String(decoding: $0, as: UTF8.self) }, "{\"b\":2}")
        XCTAssertEqual(try framer.nextLine(), [])
        XCTAssertNil(try framer.nextLine())
        for i in 0..<1000 { framer.append(Array("\(i)\n".utf8)) }
        for i in 0..<1000 { XCTAssertEqual(try framer.nextLine().map { String(decoding: $0, as: UTF8.self) }, "\(i)") }
    }

    /// A long line (a daemon's snapshot of 100,000 downloads) must not leave its buffer behind.
    func testTheMemoryOfALongLineIsGivenBack() throws {
        var framer = LineFramer(maxLineLength: 64 << 20)
        let long = [UInt8](repeating: 0x61, count: 8 << 20)
        for chunk in stride(from: 0, to: long.count, by: 65_536) {
            framer.append(long[chunk..<min(chunk + 65_536, long.count)])
        }
        framer.append(Array("\n{\"next\"".utf8))
        XCTAssertEqual(try framer.nextLine(), long)
        framer.append(Array(":1}\n".utf8))
        XCTAssertEqual(try framer.nextLine().map { String(decoding: $0, as: UTF8.self) }, "{\"next\":1}")
        XCTAssertLessThanOrEqual(framer.capacity, LineFramer.keptCapacity)
        XCTAssertNil(try framer.nextLine())
    }

    func testAnEndlessLineIsRefused() {
        var framer = LineFramer(maxLineLength: 10)
        framer.append(Array("0123456789".utf8))
        XCTAssertNil(try framer.nextLine())
        framer.append([0x41])
        XCTAssertThrowsError(try framer.nextLine())
    }

    func testMessagesSurviveTheWire() throws {
        let message = ServerMessage.event(.notice(DownloadID(rawValue: "abcdef"), .text("line one\nline two")))
        let bytes = try Wire.encode(message)
        XCTAssertEqual(bytes.filter { $0 == 0x0A }.count, 1, "exactly one newline: the terminator")
        XCTAssertEqual(try Wire.decode(ServerMessage.self, from: Array(bytes.dropLast())), message)
    }

    /// A line that is most of what was read is handed out without a copy, and what came after it
    /// is the next line.
    func testALongLineIsHandedOutWholeAndTheRestReadOn() throws {
        var framer = LineFramer(maxLineLength: 1 << 24)
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        framer.append(long + [0x0A] + Array("next\nthen".utf8))
        XCTAssertEqual(try framer.nextLine(), long)
        XCTAssertEqual(try framer.nextLine().map { String(decoding: $0, as: UTF8.self) }, "next")
        XCTAssertNil(try framer.nextLine())
        framer.append(Array("\n".utf8))
        XCTAssertEqual(try framer.nextLine().map { String(decoding: $0, as: UTF8.self) }, "then")
        XCTAssertLessThanOrEqual(framer.capacity, 1 << 20, "the long line's memory went with it")
    }

    /// A snapshot's downloads travel as the line after its message; events and other replies
    /// around it are read as they came.
    func testASnapshotIsReadBackWithTheLineAfterIt() throws {
        let network = NetworkStatus(mode: .auto, verdict: .metered, limit: 1000)
        let downloads = Array(#"[{"id":"abc","url":"http://h/a \"q\""}]"#.utf8)
        let messages: [ServerMessage] = [
            .event(.notice(DownloadID(rawValue: "abcdef"), .startedOver(.rangesIgnored))),
            .reply(id: 1, .snapshot(WireSnapshot(downloads: downloads, count: 1, network: network))),
            .reply(id: 2, .done),
            .reply(id: 3, .attached(WireSnapshot(downloads: Array("[]".utf8), count: 0, network: network), away: nil)),
            .event(.notice(DownloadID(rawValue: "abcdef"), .text("after"))),
        ]
        var framer = LineFramer(maxLineLength: 1 << 20)
        for message in messages { framer.append(try Wire.encode(message)) }
        var reader = ServerMessageReader()
        var read: [ServerMessage] = []
        var lines = 0
        while let line = try framer.nextLine() {
            lines += 1
            if let message = try reader.read(line) { read.append(message) }
        }
        XCTAssertEqual(lines, 7, "two snapshots, one line each more")
        XCTAssertEqual(read, messages)
    }
}
