import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Serves an engine session (the engine itself, in the process that owns it) on its Unix socket,
/// so the TUI and every command reach the one process that owns the state file. Only connections
/// from `allowedUID` are served.
public final class EngineServer: Sendable {
    public let location: SocketLocation
    let engine: any EngineSession
    let kind: HostKind
    let allowedUID: uid_t
    let onShutdownRequest: @Sendable () -> Void
    let log: @Sendable (String) -> Void

    private struct State {
        var listener: Int32 = -1
        /// The socket file this server made, so ``stop()`` never removes a successor's.
        var socketFile: (device: UInt64, inode: UInt64)?
        var stopped = false
        /// Set by ``closeDoor()``: a new connection is closed before any greeting.
        var doorClosed = false
        /// Requests being answered, and connected commands (clients that did not attach to the
        /// event stream): ``stop(draining:)`` lets them finish before it hangs up.
        var inFlight = 0
        var commandClients: Set<Int> = []
        var clients: [Int: LineConnection] = [:]
        var nextClient = 0
        /// When a client last came or went, by ``clock``.
        var lastChange: Duration
    }
    private let state: Mutex<State>
    /// What connection times are told by (the engine's clock, so tests move it).
    private let clock: any MonotonicClock

    public init(
        engine: any EngineSession, location: SocketLocation, kind: HostKind, allowedUID: uid_t = geteuid(),
        log: @escaping @Sendable (String) -> Void = { _ in }, onShutdownRequest: @escaping @Sendable () -> Void = {},
        clock: any MonotonicClock = SystemClock()
    ) {
        self.clock = clock
        state = Mutex(State(lastChange: clock.now))
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
    /// starts accepting. With `passed`, a listening socket a service manager made and owns,
    /// that socket is served instead and its file is left where it is when this server stops:
    /// the manager listens on it again and starts the next haul on the next connection.
    public func start(adopting passed: Int32? = nil) throws(StartError) {
        if let passed {
            state.withLock { $0.listener = passed }
            if let bound = PassedSockets.unixPath(of: passed), bound != location.path {
                log(
                    "the control socket passed in is \(TerminalText.sanitize(bound)), but haul's commands look for "
                        + "\(TerminalText.sanitize(location.path)); run haul service install again")
            }
            DetachedThread.start { [self] in acceptLoop() }
            return
        }
        guard location.fitsSocketAddress else {
            throw StartError(
                description:
                    "the socket path \(TerminalText.sanitize(location.path)) is too long for a Unix socket; set "
                    + "XDG_RUNTIME_DIR to a shorter directory"
            )
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
        DetachedThread.start { [self] in acceptLoop() }
    }

    /// Whether any client is connected now, and when one last came or went: an owner that exits
    /// when idle waits until no one is connected and no one has been for a moment.
    public var connections: (count: Int, quietFor: Duration) {
        let now = clock.now
        return state.withLock { ($0.clients.count, now - $0.lastChange) }
    }

    /// From now on a new connection is closed before the greeting, which a client takes as no
    /// haul serving the state: it waits for the state lock and opens the state itself. Called
    /// when the engine begins to shut down, so nothing new attaches to an engine that will apply
    /// no command; clients already connected are still answered.
    public func closeDoor() {
        state.withLock { $0.doorClosed = true }
    }

    /// Stops accepting, removes the socket file and ends every connection.
    public func stop() {
        stop(gently: false)
    }

    private func stop(gently: Bool) {
        let (clients, file) = state.withLock { state -> ([LineConnection], (device: UInt64, inode: UInt64)?) in
            guard !state.stopped else { return ([], nil) }
            state.stopped = true
            return (Array(state.clients.values), state.socketFile)
        }
        // The state lock may be gone already and the next owner bound its own socket here.
        if let file, let current = Self.identity(of: location.path), current == file { unlink(location.path) }
        for client in clients {
            if gently { client.closeWhenSent() } else { client.close() }
        }
    }

    /// Like ``stop()``, but connected commands are answered until they hang up (up to
    /// `seconds`): `haul cancel --all` can be what makes a `haul run` finish, and that command
    /// must hear that it worked rather than see the connection drop. UIs and followers, which
    /// stay connected, do not hold it up.
    public func stop(draining seconds: Double) async {
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while state.withLock({ $0.inFlight > 0 || !$0.commandClients.isEmpty }), clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(5))
        }
        stop(gently: true)
    }

    /// Counts a request as being answered; false once the server has stopped.
    func requestStarted() -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.inFlight += 1
            return true
        }
    }

    func requestEnded() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// The client `key` attached to the event stream: it stays connected, so a stop does not wait for it.
    func clientAttached(_ key: Int) {
        state.withLock { _ = $0.commandClients.remove(key) }
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
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC) // no accept4 in the Glibc module; nothing is spawned in between
            admit(fd)
        }
        close(poller.fd)
    }

    private func admit(_ fd: Int32) {
        guard let peer = UnixSocket.peer(of: fd), peer.uid == allowedUID else {
            let who = UnixSocket.peer(of: fd).map { "uid \($0.uid) (pid \($0.pid))" } ?? "an unknown peer"
            log("refused a connection from \(who): only uid \(allowedUID) may use this haul")
            if let refusal = try? Wire.encode(
                ServerMessage.refused("this haul belongs to uid \(allowedUID); connection refused"))
            {
                _ = UnixSocket.writeAll(fd, refusal)
            }
            UnixSocket.closeGently(fd)
            return
        }
        let connection = LineConnection(fd: fd, label: "client")
        let key = state.withLock { state -> Int? in
            guard !state.stopped, !state.doorClosed else { return nil }
            state.nextClient += 1
            state.clients[state.nextClient] = connection
            state.lastChange = clock.now
            state.commandClients.insert(state.nextClient)
            return state.nextClient
        }
        guard let key else {
            close(fd)
            return
        }
        guard let hello = try? Wire.encode(ServerMessage.hello(pid: getpid(), kind: kind, version: Wire.version)) else {
            return
        }
        connection.send(hello)
        let (requests, requestsIn) = AsyncStream.makeStream(of: ClientMessage.self)
        let kind = kind
        connection.start(
            onLine: { line in
                guard let message = try? Wire.decode(ClientMessage.self, from: line) else {
                    // A request with an id but a shape this build does not know: a haul from
                    // another version. It gets an answer it can show; anything else is not haul.
                    guard let id = try? Wire.decode(MessageID.self, from: line).id,
                        let reply = try? Wire.encode(ServerMessage.reply(id: id, .failed(Self.otherVersion(kind))))
                    else {
                        connection.close()
                        return nil
                    }
                    connection.send(reply)
                    return nil
                }
                requestsIn.yield(message)
                return nil
            },
            onClose: { [self] in
                requestsIn.finish()
                state.withLock {
                    _ = $0.clients.removeValue(forKey: key)
                    _ = $0.commandClients.remove(key)
                    $0.lastChange = clock.now
                }
            }
        )
        let session = ServedClient(server: self, connection: connection, key: key)
        Task { await session.serve(requests) }
    }

    private struct MessageID: Decodable {
        let id: UInt64
    }

    static func otherVersion(_ kind: HostKind) -> String {
        "the haul serving this state file (pid \(getpid())) is another version and cannot read that request; "
            + "\(kind.howToStop), then run the command again"
    }
}
