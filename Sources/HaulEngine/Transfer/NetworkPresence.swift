import FoundationEssentials
import HaulCore
import HaulStore

/// Whether the machine has a way out now (``DefaultRoutes``), read from the kernel's routing
/// tables. Where neither table can be read the answer is yes, so a failed attempt is counted as
/// it always was.
enum NetworkPresence {
    static func hasWayOut() -> Bool {
        let ipv4 = try? FileContents.read("/proc/net/route")
        let ipv6 = try? FileContents.read("/proc/net/ipv6_route")
        guard ipv4 != nil || ipv6 != nil else { return true }
        return DefaultRoutes.exist(
            ipv4: ipv4.map { String(decoding: $0, as: UTF8.self) } ?? "",
            ipv6: ipv6.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }

    /// How often a transfer that waits for the network looks again.
    static let lookAgainEvery: Duration = .seconds(2)

    /// Returns once the machine has a way out; throws when the task is cancelled (a pause, a
    /// quit) while it waits.
    static func wait(on clock: any MonotonicClock) async throws {
        while !hasWayOut() { try await clock.sleep(for: lookAgainEvery) }
    }
}
