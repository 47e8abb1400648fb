import CNIOLinux
import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A SOCKS5 relay on loopback for what AsyncHTTPClient's SOCKS client cannot do: log in with a
/// user name and password (RFC 1929) and resolve the server's name here (`socks5://`, where
/// `socks5h://` lets the proxy resolve it). AsyncHTTPClient talks to the relay as to a SOCKS5
/// proxy without credentials that takes names; the relay makes the real handshake with the
/// proxy and then copies bytes both ways. One per proxy, for the life of the process.
///
/// Why a connection failed is kept (``problem``), so the reason names the proxy's refusal rather
/// than the relay's closed socket.
public final class SOCKSRelay: Sendable {
    public let port: Int
    private let listener: Int32
    private let upstream: ProxyEnvironment.Endpoint
    private let lastProblem = Mutex<String?>(nil)

    /// Whether `proxy` needs the relay: SOCKS with credentials, or resolving names here.
    public static func isNeeded(for proxy: ProxyEnvironment.Endpoint) -> Bool {
        switch proxy.kind {
        case .http: false
        case .socks5: true
        case .socks5h: proxy.user != nil
        }
    }

    private static let relays = Mutex<[ProxyEnvironment.Endpoint: SOCKSRelay]>([:])

    /// The relay for `proxy`, started the first time it is asked for.
    public static func relay(for proxy: ProxyEnvironment.Endpoint) throws -> SOCKSRelay {
        try relays.withLock { relays in
            if let relay = relays[proxy] { return relay }
            let relay = try SOCKSRelay(upstream: proxy)
            relays[proxy] = relay
            return relay
        }
    }

    /// Why the last connection through the relay for `proxy` failed, if one did.
    static func problem(for proxy: ProxyEnvironment.Endpoint) -> String? {
        relays.withLock { $0[proxy] }?.lastProblem.withLock { $0 }
    }

    struct SetUpFailure: Error, CustomStringConvertible {
        let description: String
    }

    private init(upstream: ProxyEnvironment.Endpoint) throws {
        self.upstream = upstream
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SetUpFailure(description: "cannot open a socket for the SOCKS relay") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw SetUpFailure(description: "cannot listen on loopback for the SOCKS relay")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let relay = self
        DetachedThread.start { relay.acceptLoop() }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let relay = self
            DetachedThread.start { relay.serve(client) }
        }
    }

    /// One connection: the handshake with AsyncHTTPClient, the one with the proxy, then bytes.
    private func serve(_ client: Int32) {
        defer { close(client) }
        var io = SocketIO(client)
        // The client's greeting; it is offered "no authentication".
        guard let head = io.read(2), head[0] == 5, io.read(Int(head[1])) != nil, io.write([5, 0]),
            let request = io.read(4), request[0] == 5, request[1] == 1,
            let target = SOCKS5Target.read(type: request[3], from: &io)
        else { return }
        switch connectUpstream(to: target) {
        case .failure(let problem):
            lastProblem.withLock { $0 = problem.words }
            _ = io.write([5, problem.reply, 0, 1, 0, 0, 0, 0, 0, 0])
        case .success(let (proxy, reply)):
            defer { close(proxy) }
            lastProblem.withLock { $0 = nil }
            guard io.write(reply) else { return }
            SocketIO.pipe(client, proxy)
        }
    }

    private struct Problem: Error {
        var words: String
        /// The SOCKS reply sent back to the client: 1 general failure, 2 not allowed, 4 host
        /// unreachable, 5 refused.
        var reply: UInt8
    }

    private func connectUpstream(to target: SOCKS5Target) -> Result<(Int32, [UInt8]), Problem> {
        guard let proxy = SocketIO.connect(host: upstream.host, port: upstream.port) else {
            return .failure(Problem(words: "connection refused", reply: 1))
        }
        var io = SocketIO(proxy)
        io.setTimeout(seconds: 15)
        func fail(_ words: String, _ reply: UInt8) -> Result<(Int32, [UInt8]), Problem> {
            close(proxy)
            return .failure(Problem(words: words, reply: reply))
        }
        let login = upstream.user.map { ($0, upstream.password ?? "") }
        guard io.write(login == nil ? [5, 1, 0] : [5, 2, 2, 0]), let choice = io.read(2), choice[0] == 5 else {
            return fail("it did not answer as a SOCKS5 proxy", 1)
        }
        switch choice[1] {
        case 0: break
        case 2:
            guard let (user, password) = login else { return fail("it asks for a user name and password", 2) }
            let u = Array(user.utf8.prefix(255))
            let p = Array(password.utf8.prefix(255))
            guard io.write([1, UInt8(u.count)] + u + [UInt8(p.count)] + p), let status = io.read(2) else {
                return fail("it did not answer the login", 1)
            }
            guard status[1] == 0 else { return fail("it refused the user name and password", 2) }
        default:
            return fail(
                login == nil ? "it asks for credentials (user:password@ in its URL)" : "it refused to log in", 2)
        }
        var destination = target
        if upstream.kind == .socks5, case .name(let name) = target.host {
            guard let address = SocketIO.resolve(name) else { return fail("\(name) could not be resolved here", 4) }
            destination.host = address
        }
        guard io.write([5, 1, 0] + destination.bytes), let reply = io.read(4), reply[0] == 5 else {
            return fail("it did not answer the connect request", 1)
        }
        let addressLength: Int
        switch reply[3] {
        case 1: addressLength = 4
        case 4: addressLength = 16
        case 3:
            guard let length = io.read(1) else { return fail("it sent a short answer", 1) }
            addressLength = Int(length[0])
        default: return fail("it sent an answer SOCKS5 does not have", 1)
        }
        guard let bound = io.read(addressLength + 2) else { return fail("it sent a short answer", 1) }
        guard reply[1] == 0 else {
            return fail("it could not reach the server (SOCKS reply \(reply[1]))", reply[1])
        }
        io.setTimeout(seconds: 0)
        return .success((proxy, reply + (reply[3] == 3 ? [UInt8(addressLength)] : []) + bound))
    }
}

/// Where a SOCKS5 request asks to go: an address or a name, and a port.
struct SOCKS5Target {
    enum Host {
        case ipv4([UInt8])
        case ipv6([UInt8])
        case name(String)
    }

    var host: Host
    var port: [UInt8]

    static func read(type: UInt8, from io: inout SocketIO) -> SOCKS5Target? {
        let host: Host
        switch type {
        case 1:
            guard let a = io.read(4) else { return nil }
            host = .ipv4(a)
        case 4:
            guard let a = io.read(16) else { return nil }
            host = .ipv6(a)
        case 3:
            guard let length = io.read(1), let name = io.read(Int(length[0])) else { return nil }
            host = .name(String(decoding: name, as: UTF8.self))
        default: return nil
        }
        guard let port = io.read(2) else { return nil }
        return SOCKS5Target(host: host, port: port)
    }

    var bytes: [UInt8] {
        switch host {
        case .ipv4(let a): [1] + a + port
        case .ipv6(let a): [4] + a + port
        case .name(let n): [3, UInt8(min(n.utf8.count, 255))] + Array(n.utf8.prefix(255)) + port
        }
    }
}
