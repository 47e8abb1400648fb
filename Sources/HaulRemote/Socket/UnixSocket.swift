import FoundationEssentials
import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// The few Unix-domain socket calls haul needs, as throwing functions on plain descriptors.
enum UnixSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        let code: Int32
    }

    /// A listening socket at `path` (a stale file there is replaced), mode 0600.
    static func listen(at path: String) throws(Failure) -> Int32 {
        let fd = try bound(at: path)
        chmod(path, 0o600) // a umask that took the owner's bits
        guard Glibc.listen(fd, 16) == 0 else { throw closing(fd, "cannot listen on \(path)") }
        return fd
    }

    /// A socket bound to `path` (a stale file there is replaced), whose file is 0600 (less the
    /// umask) from the moment it exists.
    static func bound(at path: String) throws(Failure) -> Int32 {
        unlink(path)
        let fd = try make()
        // Linux gives the file `bind` creates the socket's own mode, less the umask. Made with
        // the umask's 0755 and changed afterwards, it could be seen in between, and a command
        // starting at that moment refused it ("other users can use it").
        fchmod(fd, 0o600)
        guard withAddress(path, { bind(fd, $0, $1) }) == 0 else { throw closing(fd, "cannot bind \(path)") }
        return fd
    }

    /// A connected socket, or a failure whose `code` is ENOENT/ECONNREFUSED when no one listens.
    static func connect(to path: String) throws(Failure) -> Int32 {
        let fd = try make()
        let connected = withAddress(path) { Glibc.connect(fd, $0, $1) }
        guard connected == 0 else { throw closing(fd, "cannot connect to \(path)") }
        return fd
    }

    /// The effective uid and pid of the process at the other end (`SO_PEERCRED`).
    static func peer(of fd: Int32) -> (pid: Int32, uid: uid_t)? {
        // struct ucred: pid_t pid; uid_t uid; gid_t gid.
        var credentials = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return (credentials.pid, credentials.uid)
    }

    /// Writes everything, without SIGPIPE if the peer is gone; false on failure.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Closes after the peer has had the chance to read what was sent: closing with its
    /// request still unread would reset the connection and could lose our last message.
    static func closeGently(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        DetachedThread.start {
            var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var sink = [UInt8](repeating: 0, count: 4096)
            var drained = 0
            while drained < 1 << 16 { // a peer that never stops sending is not waited for
                let n = sink.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                drained += n
            }
            close(fd)
        }
    }

    private static func make() throws(Failure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw Failure(description: "cannot create a socket: \(String(cString: strerror(errno)))", code: errno)
        }
        return fd
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    private static func closing(_ fd: Int32, _ what: String) -> Failure {
        let code = errno
        close(fd)
        return Failure(description: "\(what): \(String(cString: strerror(code)))", code: code)
    }
}
