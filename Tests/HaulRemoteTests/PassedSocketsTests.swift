import Foundation
import XCTest

@testable import HaulRemote

/// The `sd_listen_fds` convention, read from the environment.
final class PassedSocketsTests: XCTestCase {
    func testSocketsAreTakenOnlyWhenPassedToThisProcess() {
        let environment = ["LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "control:rpc"]
        let listed = PassedSockets.listed(in: environment, pid: 42)
        XCTAssertEqual(listed.map(\.fd), [3, 4])
        XCTAssertEqual(listed.map(\.name), ["control", "rpc"])
        // Meant for another process (a parent that did not clear them): none.
        XCTAssertTrue(PassedSockets.listed(in: environment, pid: 43).isEmpty)
        XCTAssertTrue(PassedSockets.listed(in: ["LISTEN_PID": "42", "LISTEN_FDS": "x"], pid: 42).isEmpty)
        // Without names, or with fewer names than sockets.
        let unnamed = PassedSockets.listed(
            in: ["LISTEN_PID": "7", "LISTEN_FDS": "3", "LISTEN_FDNAMES": "a::unknown"], pid: 7)
        XCTAssertEqual(unnamed.map(\.name), ["a", nil, nil])
    }

    func testASocketsRoleIsItsNameElseItsKind() {
        XCTAssertEqual(PassedSockets.role(name: "control", family: Int32(AF_INET)), .control)
        XCTAssertEqual(PassedSockets.role(name: "rpc", family: Int32(AF_UNIX)), .rpc)
        XCTAssertEqual(PassedSockets.role(name: nil, family: Int32(AF_UNIX)), .control)
        XCTAssertEqual(PassedSockets.role(name: "haul.socket", family: Int32(AF_INET6)), .rpc)
        XCTAssertNil(PassedSockets.role(name: nil, family: nil))
    }

    func testAPassedSocketsAddressIsRead() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        XCTAssertEqual(
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }, 0)
        XCTAssertGreaterThan(try XCTUnwrap(PassedSockets.port(of: fd)), 0)
        XCTAssertNil(PassedSockets.unixPath(of: fd))
    }
}
