import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Tells the service manager how the daemon is (the `sd_notify` protocol, without libsystemd):
/// one datagram per message to the Unix socket named by `NOTIFY_SOCKET` (a leading `@` names an
/// abstract socket). Without that variable every call does nothing.
struct ServiceNotifier: Sendable {
    private let path: String?

    /// Takes `NOTIFY_SOCKET` and removes it from the environment, so no hook or child process
    /// speaks for the daemon.
    static func claim() -> ServiceNotifier {
        let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        unsetenv("NOTIFY_SOCKET")
        return ServiceNotifier(path: path)
    }

    var isActive: Bool { path != nil }

    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    func status(_ line: String) { send("STATUS=\(line)") }
    func stopping(_ why: String = "stopping; every byte is kept") { send("STOPPING=1\nSTATUS=\(why)") }

    /// Sends one message; a manager that is gone is not an error worth more than silence.
    private func send(_ message: String) {
        guard let path else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let payload = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                payload.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
    }
}
