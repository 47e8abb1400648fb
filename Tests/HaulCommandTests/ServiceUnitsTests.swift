import Foundation
import HaulRemote
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

    /// The package's units serve whoever enables them: their state file is found through `%h`
    /// (a specifier, so not escaped), their socket is the one the usual state file's clients
    /// look for, and the service does not pull the RPC port in.
    func testThePackagedUnitsNameTheUsualStateFileOfWhoeverEnablesThem() {
        let units = ServiceUnits.packaged(binary: "/usr/bin/haul")
        XCTAssertEqual(units.files.map(\.name), ["haul.socket", "haul-rpc.socket", "haul.service"])
        XCTAssertTrue(
            units.service.contains(
                "ExecStart=/usr/bin/haul daemon --exit-when-idle --state %h/.local/state/haul/state.json\n"),
            units.service)
        XCTAssertTrue(units.service.contains("Sockets=haul.socket\n"), units.service)
        XCTAssertTrue(units.socket.contains("ListenStream=%t/haul/default.sock\n"), units.socket)
        XCTAssertTrue(units.rpcSocket?.contains("ListenStream=127.0.0.1:6800\n") ?? false)
        XCTAssertTrue(units.socket.hasPrefix("# Installed with haul's package"))
        let client = SocketLocation(
            statePath: "/home/u/.local/state/haul/state.json",
            environment: ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertEqual(client.path, "/run/user/1000/haul/default.sock", "where the packaged socket listens")
    }

    func testJoinedWordsSplitBackToTheSameWords() throws {
        for words in [["mpv", "--fs"], ["sh", "-c", "sleep 1; echo 'x'"], ["a\\b", "\"q\"", ""]] {
            XCTAssertEqual(try CommandWords.split(CommandWords.join(words)), words)
        }
    }
}
