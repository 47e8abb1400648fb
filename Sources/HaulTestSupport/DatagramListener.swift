import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix datagram socket that keeps every message sent to it: what a service manager's
/// `NOTIFY_SOCKET` is, for a test to read what a daemon told it.
public final class DatagramListener: Sendable {
    /// What the reading thread shares with the listener: the messages, and whether to stop
    /// (the thread then closes the socket, never while it reads it).
    private final class Inbox: Sendable {
        let received = Mutex<[String]>([])
        let stopped = Mutex(false)
    }

    public let path: String
    private let inbox = Inbox()

    public init(path: String) throws {
        self.path = path
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ChildProcess.SpawnError(description: "cannot make a datagram socket at \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw ChildProcess.SpawnError(description: "cannot bind \(path)")
        }
        let inbox = self.inbox
        Thread.detachNewThread {
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while !inbox.stopped.withLock({ $0 }) {
                guard poll(&poller, 1, 100) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0, errno == EINTR { continue }
                if n < 0 { return }
                let message = String(decoding: buffer[0..<n], as: UTF8.self)
                inbox.received.withLock { $0.append(message) }
            }
        }
    }

    /// Every message so far, in the order they came.
    public var messages: [String] { inbox.received.withLock { $0 } }

    deinit {
        inbox.stopped.withLock { $0 = true }
        unlink(path)
    }
}
