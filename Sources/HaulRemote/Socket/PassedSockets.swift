#if canImport(Glibc)
    import Glibc
#endif

/// A listening socket a service manager (systemd, `systemd-socket-activate`) opened and handed
/// to this process.
public struct PassedSocket: Sendable, Equatable {
    /// What haul serves on a passed socket.
    public enum Role: Sendable, Equatable {
        /// The Unix socket other haul commands reach the owner of the state on.
        case control
        /// The aria2-compatible RPC port.
        case rpc
    }

    public let fd: Int32
    /// Its `FileDescriptorName=`, when the manager gave one.
    public let name: String?
    public let role: Role?

    public init(fd: Int32, name: String?, role: Role?) {
        self.fd = fd
        self.name = name
        self.role = role
    }
}

/// The `sd_listen_fds` convention, read without libsystemd: `LISTEN_FDS` descriptors from 3 on,
/// meant for this process only when `LISTEN_PID` is its pid, named in order by the
/// colon-separated `LISTEN_FDNAMES`.
public enum PassedSockets {
    public static let firstDescriptor: Int32 = 3
    /// The names haul's unit files give the sockets.
    public static let controlName = "control"
    public static let rpcName = "rpc"

    /// The descriptors and names the environment passes to the process `pid` (pure).
    public static func listed(in environment: [String: String], pid: pid_t) -> [(fd: Int32, name: String?)] {
        guard let target = environment["LISTEN_PID"].flatMap({ pid_t($0) }), target == pid,
            let count = environment["LISTEN_FDS"].flatMap({ Int32($0) }), count > 0, count < 1024
        else { return [] }
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false) }
        return (0..<count).map { index in
            let name = names.flatMap { Int(index) < $0.count ? String($0[Int(index)]) : nil }
            return (firstDescriptor + index, name.flatMap { $0.isEmpty || $0 == "unknown" ? nil : $0 })
        }
    }

    /// What a socket is for: its name says so, else its kind does (a Unix stream socket is the
    /// control socket, a TCP one the RPC port). Pure, given the socket's address family.
    public static func role(name: String?, family: Int32?) -> PassedSocket.Role? {
        switch name {
        case controlName?: return .control
        case rpcName?: return .rpc
        default:
            switch family {
            case Int32(AF_UNIX)?: return .control
            case Int32(AF_INET)?, Int32(AF_INET6)?: return .rpc
            default: return nil
            }
        }
    }

    /// Takes the sockets passed to this process: each is marked close-on-exec, so no hook or
    /// child inherits it, and the variables are removed so no child mistakes them for its own.
    public static func claim(environment: [String: String]) -> [PassedSocket] {
        let listed = listed(in: environment, pid: getpid())
        for variable in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(variable) }
        return listed.compactMap { fd, name in
            guard fcntl(fd, F_GETFD) >= 0 else { return nil }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return PassedSocket(fd: fd, name: name, role: role(name: name, family: address(of: fd)?.family))
        }
    }

    /// The path a Unix socket is bound to, nil for anything else.
    public static func unixPath(of fd: Int32) -> String? {
        guard let (family, raw) = address(of: fd), family == Int32(AF_UNIX) else { return nil }
        let path = raw.dropFirst(MemoryLayout<sa_family_t>.size).prefix { $0 != 0 }
        return path.isEmpty ? nil : String(decoding: path, as: UTF8.self)
    }

    /// The TCP port a socket is bound to, nil for anything else.
    public static func port(of fd: Int32) -> Int? {
        guard let (family, raw) = address(of: fd) else { return nil }
        let port: UInt16
        switch family {
        case Int32(AF_INET): port = raw.withUnsafeBytes { $0.loadUnaligned(as: sockaddr_in.self).sin_port }
        case Int32(AF_INET6): port = raw.withUnsafeBytes { $0.loadUnaligned(as: sockaddr_in6.self).sin6_port }
        default: return nil
        }
        return Int(UInt16(bigEndian: port))
    }

    /// The address family and the raw address a socket is bound to; nil for what is not a socket.
    private static func address(of fd: Int32) -> (family: Int32, raw: [UInt8])? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard found == 0 else { return nil }
        let raw = withUnsafeBytes(of: storage) { Array($0.prefix(Int(length))) }
        return (
            Int32(storage.ss_family),
            raw + [UInt8](repeating: 0, count: MemoryLayout<sockaddr_storage>.size - raw.count)
        )
    }
}
