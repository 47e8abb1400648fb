import XCTest

@testable import HaulCore

/// Whether the machine has a way out, read from the kernel's routing tables as Linux prints them.
final class DefaultRoutesTests: XCTestCase {
    static let ipv4Header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT"
    static let ipv4Default = "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0"
    static let ipv4Subnet = "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0"
    static let ipv6Default =
        "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
        + "fd000000000000000000000000000001 00000400 00000003 00000000 00000003     eth0"
    static let ipv6Loopback =
        "00000000000000000000000000000001 80 00000000000000000000000000000000 00 "
        + "00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo"
    /// The kernel's own IPv6 default: on `lo`, a reject route that is not up.
    static let ipv6Reject =
        "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
        + "00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo"

    func testADefaultRouteInEitherFamilyIsAWayOut() {
        let ipv4 = [Self.ipv4Header, Self.ipv4Default, Self.ipv4Subnet].joined(separator: "\n")
        XCTAssertTrue(DefaultRoutes.exist(ipv4: ipv4, ipv6: ""))
        XCTAssertTrue(DefaultRoutes.exist(ipv4: Self.ipv4Header, ipv6: Self.ipv6Default + "\n" + Self.ipv6Reject))
    }

    func testLoopbackSubnetsAndRejectRoutesAreNot() {
        let subnetOnly = [Self.ipv4Header, Self.ipv4Subnet].joined(separator: "\n")
        let ipv6 = [Self.ipv6Loopback, Self.ipv6Reject].joined(separator: "\n")
        XCTAssertFalse(DefaultRoutes.exist(ipv4: subnetOnly, ipv6: ipv6), "a subnet's route only reaches the subnet")
        XCTAssertFalse(DefaultRoutes.exist(ipv4: Self.ipv4Header, ipv6: ""), "nothing but the header")
        let onLoopback = Self.ipv4Default.replacingOccurrences(of: "eth0", with: "lo")
        XCTAssertFalse(DefaultRoutes.exist(ipv4: Self.ipv4Header + "\n" + onLoopback, ipv6: ""))
        let down = Self.ipv4Default.replacingOccurrences(of: "\t0003\t", with: "\t0002\t")
        XCTAssertFalse(DefaultRoutes.exist(ipv4: Self.ipv4Header + "\n" + down, ipv6: ""), "a route not up")
        XCTAssertFalse(DefaultRoutes.exist(ipv4: "", ipv6: "garbage\nmore garbage"))
    }
}
