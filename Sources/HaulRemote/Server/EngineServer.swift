#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HaulCore
import HaulEngine
import Synchronization

/// Serves an engine on its Unix socket, so the TUI and every command reach the one process
/// that owns the state file. Only connections from `allowedUID` are served.
public final class EngineServer: Sendable {
    public let location: SocketLocation
    let engine: Engine
    let kind: HostKind
    let allowedUID: uid_t
    let onShutdownRequest: @Sendable () -> Void
    let log: @Sendable (String) -> Void

    private struct State {
        var listener: Int32 = -1
        /// The socket file this server made, so ``stop()`` never removes a successor's.
        var socketFile: (device: UInt64, inode: UInt64)?
        var stopped = false
        var clients: [Int: LineConnection] = [:]
        var nextClient = 0
    }
    private let state = Mutex(State())

    public init(
        engine: Engine, location: SocketLocation, kind: HostKind, allowedUID: uid_t = geteuid(),
        log: @escaping @Sendable (String) -> Void = { _ in }, onShutdownRequest: @escaping @Sendable () -> Void = {}
    ) {
        self.engine = engine
        self.location = location
        self.kind = kind
        self.allowedUID = allowedUID
        self.log = log
        self.onShutdownRequest = onShutdownRequest
    }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds the socket (the caller holds the state lock, so a file there is stale) and
    /// starts accepting.
    public func start() throws(StartError) {
        guard location.fitsSocketAddress else {
            throw StartError(description: "the socket path \(TerminalText.sanitize(location.path)) is too long for a Unix socket; set XDG_RUNTIME_DIR to a shorter directory")
        }
        do {
            try SocketTrust.prepareDirectory(location.directory)
            let fd = try UnixSocket.listen(at: location.path)
            let file = Self.identity(of: location.path)
            state.withLock {
                $0.listener = fd
                $0.socketFile = file
            }
        } catch let error as UntrustedSocket {
            throw StartError(description: error.description)
        } catch {
            throw StartError(description: String(describing: error))
        }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting, removes the socket file and ends every connection.
    public func stop() {
        let (clients, file) = state.withLock { state -> ([LineConnection], (device: UInt64, inode: UInt64)?) in
            guard !state.stopped else { return ([], nil) }
            state.stopped = true
            return (Array(state.clients.values), state.socketFile)
        }
        // The state lock may be gone already and the next owner bound its own socket here.
        if let file, let current = Self.identity(of: location.path), current == file { unlink(location.path) }
        for client in clients { client.close() }
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    private func acceptLoop() {
        var poller = pollfd(fd: state.withLock { $0.listener }, events: Int16(POLLIN), revents: 0)
        while !state.withLock({ $0.stopped }) {
            guard poll(&poller, 1, 200) > 0 else { continue }
            let fd = accept(poller.fd, nil, nil)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // no accept4 in the Glibc module; nothing is spawned in between
            admit(fd)
        }
        close(poller.fd)
    }

    private func admit(_ fd: Int32) {
        guard let peer = UnixSocket.peer(of: fd), peer.uid == allowedUID else {
            let who = UnixSocket.peer(of: fd).map { "uid \($0.uid) (pid \($0.pid))" } ?? "an unknown peer"
            log("refused a connection from \(who): only uid \(allowedUID) may use this haul")
            if let refusal = try? Wire.encode(ServerMessage.refused("this haul belongs to uid \(allowedUID); connection refused")) {
                _ = UnixSocket.writeAll(fd, refusal)
            }
            UnixSocket.closeGently(fd)
            return
        }
        let connection = LineConnection(fd: fd, label: "client")
        let key = state.withLock { state -> Int? in
            guard !state.stopped else { return nil }
            state.nextClient += 1
            state.clients[state.nextClient] = connection
            return state.nextClient
        }
        guard let key else {
            close(fd)
            return
        }
        guard let hello = try? Wire.encode(ServerMessage.hello(pid: getpid(), kind: kind)) else { return }
        connection.send(hello)
        let (requests, requestsIn) = AsyncStream.makeStream(of: ClientMessage.self)
        connection.start(
            onLine: { line in
                guard let message = try? Wire.decode(ClientMessage.self, from: line) else {
                    connection.close()  // not haul speaking
                    return
                }
                requestsIn.yield(message)
            },
            onClose: { [self] in
                requestsIn.finish()
                state.withLock { _ = $0.clients.removeValue(forKey: key) }
            }
        )
        let session = ServedClient(server: self, connection: connection)
        Task { await session.serve(requests) }
    }
}
