import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to the haul process that owns a state file (a daemon, a TUI or `haul run`),
/// standing in for the engine itself.
public final class RemoteEngine: EngineSession {
    /// The serving process.
    public let pid: Int32
    public let kind: HostKind
    /// The server's ``Wire/version``: when it is not this build's, only `shutdown` is sent.
    public let version: Int
    private let connection: LineConnection
    private let state: Mutex<State>

    private struct State {
        var nextID: UInt64 = 0
        var pending: [UInt64: CheckedContinuation<ServerReply, any Error>] = [:]
        var events: EngineEvents.Sender?
        var closed = false
        /// The server answered that its engine has stopped: it is on its way out.
        var ownerStopped = false
    }

    /// Connects to the owner of the state file, or returns nil when no haul serves it
    /// (no socket, or a stale one left by a killed process). Throws when the socket is not
    /// private to this user, or the server refuses.
    public static func connect(_ location: SocketLocation) async throws(InputError) -> RemoteEngine? {
        guard access(location.path, F_OK) == 0 else { return nil }
        do {
            try SocketTrust.verify(location)
        } catch {
            throw InputError(error.description)
        }
        let fd: Int32
        do {
            fd = try UnixSocket.connect(to: location.path)
        } catch {
            if error.code == ECONNREFUSED || error.code == ENOENT { return nil }
            throw InputError(error.description)
        }
        guard let peer = UnixSocket.peer(of: fd), peer.uid == geteuid() else {
            Glibc.close(fd)
            throw InputError("refusing \(TerminalText.sanitize(location.path)): it is served by another user")
        }
        let connection = LineConnection(fd: fd, label: "server")
        let greeting = Greeting()
        let engine = Mutex<RemoteEngine?>(nil)
        let reader = Mutex(ServerMessageReader())
        connection.start(
            onLine: { line in
                let message: ServerMessage?
                let next: Int?
                do {
                    (message, next) = try reader.withLock { reader in (try reader.read(line), reader.nextLineLength) }
                } catch {
                    connection.close()
                    return nil
                }
                // Nil: a snapshot, waiting for its downloads line.
                guard let message else { return next }
                if let remote = engine.withLock({ $0 }) {
                    remote.receive(message)
                } else {
                    greeting.receive(message)
                }
                return nil
            },
            onClose: {
                greeting.closed()
                engine.withLock { $0 }?.disconnected()
            }
        )
        let hello: Greeting.Hello
        do {
            hello = try await greeting.wait(seconds: 10)
        } catch is Greeting.Gone {
            return nil // it died as we came (a kill -9): no one serves the state file now
        } catch {
            connection.close()
            throw InputError(TerminalText.sanitize(String(describing: error)))
        }
        let remote = RemoteEngine(pid: hello.pid, kind: hello.kind, version: hello.version, connection: connection)
        engine.withLock { $0 = remote }
        return remote
    }

    private init(pid: Int32, kind: HostKind, version: Int, connection: LineConnection) {
        self.pid = pid
        self.kind = kind
        self.version = version
        self.connection = connection
        state = Mutex(State())
    }

    /// Ends the connection; a UI detaches, and a daemon carries on.
    public func close() { connection.close() }

    /// The connection has ended (closed here, or the serving process went away), or the serving
    /// process answered that it has stopped and will go away.
    public var isDisconnected: Bool { state.withLock { $0.closed || $0.ownerStopped } }

    // MARK: EngineSession

    public func attach(ui: Bool) async throws -> EngineAttachment {
        let (events, sender) = EngineEvents.makeStream()
        state.withLock { $0.events = sender }
        guard case .attached(let snapshot, let away) = try await request(.attach(ui: ui)) else { throw unexpected() }
        return EngineAttachment(snapshot: EngineSnapshot(snapshot), away: away, events: events)
    }

    public func snapshot() async throws -> EngineSnapshot {
        guard case .snapshot(let snapshot) = try await request(.snapshot) else { throw unexpected() }
        return EngineSnapshot(snapshot)
    }

    public func download(_ id: DownloadID) async throws -> Download? {
        guard case .download(let download) = try await request(.download(id)) else { throw unexpected() }
        return download
    }

    @discardableResult
    public func perform(_ command: EngineCommand) async throws -> [DownloadID] {
        guard case .ids(let ids) = try await request(.perform(command)) else { throw unexpected() }
        return ids
    }

    public func save() async throws {
        _ = try await request(.save)
    }

    public func refreshedNetworkStatus() async throws -> NetworkStatus {
        guard case .network(let status) = try await request(.refreshNetwork) else { throw unexpected() }
        return status
    }

    public func torrentDetails(_ id: DownloadID) async throws -> TorrentDetails? {
        guard case .torrentDetails(let details) = try await request(.torrentDetails(id)) else { throw unexpected() }
        return details
    }

    public func waitUntilIdle() async throws {
        _ = try await request(.waitUntilIdle)
    }

    /// Asks a daemon to stop.
    /// The server sees a UI leave when its connection closes.
    public func detachUI() async {}

    public func shutdownDaemon() async throws {
        _ = try await request(.shutdown)
    }

    // MARK: Wire

    private func request(_ request: ClientRequest) async throws -> ServerReply {
        // Asking another version to stop is the one request whose shape never changes.
        guard version == Wire.version || request == .shutdown else {
            throw InputError(
                "the haul serving this state file (pid \(pid)) is another version; \(kind.howToStop), then run the "
                    + "command again"
            )
        }
        let reply = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<ServerReply, any Error>) in
            let id = state.withLock { state -> UInt64? in
                guard !state.closed else { return nil }
                state.nextID += 1
                state.pending[state.nextID] = continuation
                return state.nextID
            }
            guard let id else {
                continuation.resume(throwing: lost())
                return
            }
            do {
                connection.send(try Wire.encode(ClientMessage(id: id, request: request)))
            } catch {
                state.withLock { _ = $0.pending.removeValue(forKey: id) }
                continuation.resume(throwing: error)
            }
        }
        if case .failed(let message) = reply {
            if message == InputError.engineStopped.message { state.withLock { $0.ownerStopped = true } }
            throw InputError(TerminalText.sanitize(message))
        }
        return reply
    }

    private func receive(_ message: ServerMessage) {
        switch message {
        case .reply(let id, let reply):
            state.withLock { $0.pending.removeValue(forKey: id) }?.resume(returning: reply)
        case .event(let event):
            state.withLock { $0.events }?.send(event)
        case .hello, .refused:
            break
        }
    }

    private func disconnected() {
        let (pending, events) = state.withLock { state in
            state.closed = true
            defer {
                state.pending = [:]
                state.events = nil
            }
            return (Array(state.pending.values), state.events)
        }
        for continuation in pending { continuation.resume(throwing: lost()) }
        events?.finish()
    }

    private func lost() -> InputError {
        InputError("lost the connection to haul (pid \(pid))")
    }

    private func unexpected() -> InputError {
        InputError("haul (pid \(pid)) gave an unexpected answer; are both the same version?")
    }
}

/// The first message of a connection, awaited with a deadline.
private final class Greeting: Sendable {
    /// The connection closed before any greeting: the serving process is gone.
    struct Gone: Error {}

    typealias Hello = (pid: Int32, kind: HostKind, version: Int)

    private enum Outcome {
        case waiting(CheckedContinuation<Hello, any Error>?)
        case hello(Hello)
        case failed(String)
        case gone
    }
    private let outcome = Mutex(Outcome.waiting(nil))

    func receive(_ message: ServerMessage) {
        switch message {
        case .hello(let pid, let kind, let version): settle(.hello((pid, kind, version ?? 1)))
        case .refused(let reason): settle(.failed("the running haul refused the connection: \(reason)"))
        case .reply, .event: settle(.failed("the running haul did not greet"))
        }
    }

    func fail(_ reason: String) { settle(.failed(reason)) }

    func closed() { settle(.gone) }

    func wait(seconds: Double) async throws -> Hello {
        let timeout = Task {
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            self.fail("the running haul did not answer within \(Int(seconds)) s")
        }
        defer { timeout.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready = outcome.withLock { outcome -> Outcome? in
                if case .waiting = outcome {
                    outcome = .waiting(continuation)
                    return nil
                }
                return outcome
            }
            if let ready { Self.resume(continuation, with: ready) }
        }
    }

    private func settle(_ result: Outcome) {
        let waiter = outcome.withLock { outcome -> CheckedContinuation<Hello, any Error>?? in
            guard case .waiting(let continuation) = outcome else { return .none }
            outcome = result
            return .some(continuation)
        }
        if case .some(.some(let continuation)) = waiter { Self.resume(continuation, with: result) }
    }

    private static func resume(_ continuation: CheckedContinuation<Hello, any Error>, with outcome: Outcome) {
        switch outcome {
        case .hello(let hello): continuation.resume(returning: hello)
        case .failed(let reason): continuation.resume(throwing: InputError(reason))
        case .gone: continuation.resume(throwing: Gone())
        case .waiting: break
        }
    }
}
