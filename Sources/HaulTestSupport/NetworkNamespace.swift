import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A network namespace of a test's own, joined to the host by a veth pair: the host's end has
/// ``hostAddress``, the namespace's ``address`` (a /30 of 10.200–249.x.y, picked at random). The
/// namespace has its loopback and that link, and no route beyond it. Needs root and iproute2.
public final class NetworkNamespace: Sendable {
    public let name: String
    public let hostAddress: String
    public let address: String
    /// The namespace's end of the pair.
    public let link: String
    private let hostLink: String
    private let directory: String

    /// Whether this process may make one (root, with `ip` installed).
    public static var isPossible: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
    }

    /// Makes the namespace and the pair; the namespace's end is up unless `linkUp` is false.
    public init(linkUp: Bool = true, in directory: String) async throws {
        let tag = String(format: "%05d", Int.random(in: 0..<100_000))
        let subnet = "10.\(200 + Int.random(in: 0..<50)).\(Int.random(in: 0..<250))"
        name = "haul-\(tag)"
        hostLink = "vh\(tag)"
        link = "vc\(tag)"
        hostAddress = subnet + ".1"
        address = subnet + ".2"
        self.directory = directory
        try await ip("netns", "add", name)
        try await ip("link", "add", hostLink, "type", "veth", "peer", "name", link)
        try await ip("link", "set", link, "netns", name)
        try await ip("addr", "add", hostAddress + "/30", "dev", hostLink)
        try await ip("link", "set", hostLink, "up")
        try await inside("ip", "addr", "add", address + "/30", "dev", link)
        try await inside("ip", "link", "set", "lo", "up")
        if linkUp { try await inside("ip", "link", "set", link, "up") }
    }

    /// The command `arguments` run inside the namespace, as `ip netns exec` runs it.
    public func command(_ arguments: [String]) -> (executable: String, arguments: [String]) {
        ("/usr/sbin/ip", ["netns", "exec", name] + arguments)
    }

    /// The same command as one line for a shell (a terminal's pane runs one): each word in single
    /// quotes, so none may hold one.
    public func shellLine(_ arguments: [String]) -> String {
        let (executable, words) = command(arguments)
        return ([executable] + words).map { "'\($0)'" }.joined(separator: " ")
    }

    /// Runs `arguments` inside the namespace; throws with its error output when it fails.
    public func inside(_ arguments: String...) async throws {
        try await ip(["netns", "exec", name] + arguments)
    }

    /// Takes the pair and the namespace away.
    public func remove() async {
        _ = try? await ip("link", "del", hostLink)
        _ = try? await ip("netns", "del", name)
    }

    private func ip(_ arguments: String...) async throws { try await ip(arguments) }

    private func ip(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run(
            "/usr/sbin/ip", arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], in: directory)
        guard result.status == 0 else {
            throw Failure(description: "ip \(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
