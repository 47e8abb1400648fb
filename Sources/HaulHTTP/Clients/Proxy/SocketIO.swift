import CNIOLinux
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Blocking reads and writes on one socket, for the SOCKS relay's handshakes, and the copy of
/// bytes both ways once they are done.
struct SocketIO {
    let fd: Int32

    init(_ fd: Int32) { self.fd = fd }

    /// Exactly `count` bytes; nil when the socket ends or fails first.
    mutating func read(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    /// Writes all of `bytes`; false when the socket fails.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool { Self.write(fd, bytes[...]) }

    private static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// A receive timeout for the handshake (0: none).
    func setTimeout(seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A TCP connection to `host:port` (any address the name has), or nil.
    static func connect(host: String, port: Int) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd >= 0 {
                if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return fd
                }
                close(fd)
            }
            entry = info.pointee.ai_next
        }
        return nil
    }

    /// The first address `name` resolves to here (IPv4 preferred), or nil.
    static func resolve(_ name: String) -> SOCKS5Target.Host? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var ipv6: SOCKS5Target.Host?
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            if info.pointee.ai_family == AF_INET {
                let bytes = info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
                }
                return .ipv4(bytes)
            }
            if info.pointee.ai_family == AF_INET6, ipv6 == nil {
                let bytes = info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                }
                ipv6 = .ipv6(bytes)
            }
            entry = info.pointee.ai_next
        }
        return ipv6
    }

    /// Copies bytes both ways until both directions have ended; an end on one side is passed on
    /// as a half close, a failure on either ends both.
    static func pipe(_ a: Int32, _ b: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var open = (a: true, b: true)
        while open.a || open.b {
            var fds = [
                pollfd(fd: open.a ? a : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: open.b ? b : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            for (index, (from, to)) in [(a, b), (b, a)].enumerated() where fds[index].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(from, $0.baseAddress!, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                if n <= 0 {
                    if n < 0 { return }
                    shutdown(to, Int32(SHUT_WR))
                    if index == 0 { open.a = false } else { open.b = false }
                    continue
                }
                guard write(to, buffer[..<n]) else { return }
            }
        }
    }
}
