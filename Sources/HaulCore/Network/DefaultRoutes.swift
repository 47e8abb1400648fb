/// Whether the machine has a way out: a default route through an interface other than loopback,
/// read from the kernel's routing tables as `/proc/net/route` and `/proc/net/ipv6_route` list
/// them. Without one (Wi-Fi dropped, cable out, airplane mode) no server beyond this machine
/// answers, and a failed attempt says nothing about the server.
public enum DefaultRoutes {
    /// `RTF_UP` in `<linux/route.h>`: the route is usable.
    static let up: UInt32 = 0x0001
    /// `RTF_REJECT`: a route that only answers "unreachable" (the kernel's IPv6 default on `lo`).
    static let reject: UInt32 = 0x0200

    /// True when either table has a usable default route on an interface other than `lo`.
    public static func exist(ipv4: String, ipv6: String) -> Bool {
        inIPv4(ipv4) || inIPv6(ipv6)
    }

    /// `/proc/net/route`: a header, then `Iface Destination Gateway Flags RefCnt Use Metric Mask
    /// …` per route, addresses and flags in hex; a default route has destination and mask 0.
    static func inIPv4(_ table: String) -> Bool {
        table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, let flags = UInt32(fields[3], radix: 16) else { return false }
            return fields[0] != "lo" && fields[1] == "00000000" && fields[7] == "00000000" && usable(flags)
        }
    }

    /// `/proc/net/ipv6_route`: `destination prefix-length source source-length next-hop metric
    /// refcount use flags interface` per route, in hex; a default route has prefix length 0.
    static func inIPv6(_ table: String) -> Bool {
        table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, let flags = UInt32(fields[8], radix: 16) else { return false }
            return fields[9] != "lo" && fields[1] == "00" && fields[0].allSatisfy { $0 == "0" } && usable(flags)
        }
    }

    private static func usable(_ flags: UInt32) -> Bool { flags & up != 0 && flags & reject == 0 }
}
