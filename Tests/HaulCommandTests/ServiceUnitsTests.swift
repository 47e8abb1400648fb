import Foundation
import XCTest

@testable import haul

/// The unit files' text: command words and addresses as systemd reads them.
final class ServiceUnitsTests: XCTestCase {
    func testCommandWordsAreQuotedOnlyWhenSystemdWouldSplitOrExpandThem() {
        XCTAssertEqual(ServiceUnits.quoted("/usr/bin/haul"), "/usr/bin/haul")
        XCTAssertEqual(ServiceUnits.quoted("/home/a b/state.json"), #""/home/a b/state.json""#)
        XCTAssertEqual(ServiceUnits.quoted("/data/100%/s"), "/data/100%%/s")
        XCTAssertEqual(ServiceUnits.quoted(#"/x/"q"\y"#), #""/x/\"q\"\\y""#)
        XCTAssertEqual(ServiceUnits.quoted("/x/$HOME"), #""/x/$HOME""#)
    }

    func testListenAddressesAreNumeric() {
        XCTAssertEqual(ServiceUnits.listenAddress("localhost", 6800), "127.0.0.1:6800")
        XCTAssertEqual(ServiceUnits.listenAddress("::1", 6800), "[::1]:6800")
        XCTAssertEqual(ServiceUnits.listenAddress("0.0.0.0", 16800), "0.0.0.0:16800")
    }

    func testTheRPCSocketIsWrittenOnlyWhileRPCIsOn() {
        var units = ServiceUnits(
            binary: "/usr/bin/haul", statePath: "/home/u/.local/state/haul/state.json",
            socketInRuntimeDirectory: "haul/0123456789abcdef.sock", rpc: nil)
        XCTAssertEqual(units.files.map(\.name), ["haul.socket", "haul.service"])
        XCTAssertTrue(units.socket.contains("ListenStream=%t/haul/0123456789abcdef.sock\n"))
        XCTAssertTrue(units.service.contains("Sockets=haul.socket\n"))
        units.rpc = ("127.0.0.1", 6800)
        XCTAssertEqual(units.files.map(\.name), ["haul.socket", "haul-rpc.socket", "haul.service"])
        XCTAssertTrue(units.service.contains("Sockets=haul.socket haul-rpc.socket\n"))
    }

    func testJoinedWordsSplitBackToTheSameWords() throws {
        for words in [["mpv", "--fs"], ["sh", "-c", "sleep 1; echo 'x'"], ["a\\b", "\"q\"", ""]] {
            XCTAssertEqual(try CommandWords.split(CommandWords.join(words)), words)
        }
    }
}
