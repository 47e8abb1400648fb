import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// One connected client: its requests are answered in the order they came, its events
/// forwarded once it attached.
actor ServedClient {
    private let server: EngineServer
    private let connection: LineConnection
    private var forwarding: Task<Void, Never>?
    private var isUI = false
    private var waits: [Task<Void, Never>] = []

    private let key: Int

    init(server: EngineServer, connection: LineConnection, key: Int) {
        self.server = server
        self.connection = connection
        self.key = key
    }

    func serve(_ requests: AsyncStream<ClientMessage>) async {
        for await message in requests {
            guard server.requestStarted() else {
                send(.reply(id: message.id, .failed(InputError.engineStopped.message)))
                continue
            }
            if let reply = await answer(message) { send(.reply(id: message.id, reply)) }
            server.requestEnded()
        }
        forwarding?.cancel()
        for wait in waits { wait.cancel() }
        if isUI { await server.engine.detachUI() }
    }

    /// The reply, or nil when it is sent later.
    private func answer(_ message: ClientMessage) async -> ServerReply? {
        let engine = server.engine
        switch message.request {
        case .attach(let ui):
            guard forwarding == nil else { return .failed("already attached") }
            let attachment: EngineAttachment
            let snapshot: WireSnapshot
            do {
                attachment = try await engine.attach(ui: ui)
                snapshot = try WireSnapshot(attachment.snapshot)
            } catch {
                return .failed(Self.message(error))
            }
            isUI = ui
            server.clientAttached(key)
            send(.reply(id: message.id, .attached(snapshot, away: attachment.away)))
            let connection = self.connection
            forwarding = Task {
                for await event in attachment.events {
                    if let bytes = try? Wire.encode(ServerMessage.event(event)) { connection.send(bytes) }
                }
                connection.close() // the engine stopped
            }
            return nil
        case .download(let id):
            do {
                return .download(try await engine.download(id))
            } catch {
                return .failed(Self.message(error))
            }
        case .snapshot:
            do {
                return .snapshot(try WireSnapshot(try await engine.snapshot()))
            } catch {
                return .failed(Self.message(error))
            }
        case .perform(let command):
            do {
                return .ids(try await engine.perform(command))
            } catch {
                return .failed(Self.message(error))
            }
        case .save:
            do {
                try await engine.save()
                return .done
            } catch {
                return .failed(Self.message(error))
            }
        case .torrentDetails(let id):
            do {
                return .torrentDetails(try await engine.torrentDetails(id))
            } catch {
                return .failed(Self.message(error))
            }
        case .refreshNetwork:
            do {
                return .network(try await engine.refreshedNetworkStatus())
            } catch {
                return .failed(Self.message(error))
            }
        case .waitUntilIdle:
            // Answered from its own task so the client's other requests are not held up.
            let id = message.id
            waits.append(
                Task {
                    let reply: ServerReply
                    do {
                        try await engine.waitUntilIdle()
                        reply = .done
                    } catch {
                        reply = .failed(Self.message(error))
                    }
                    if !Task.isCancelled { self.send(.reply(id: id, reply)) }
                })
            return nil
        case .shutdown:
            guard server.kind == .daemon else {
                return .failed("this haul is not a daemon (it is the \(server.kind.name) of pid \(getpid()))")
            }
            send(.reply(id: message.id, .done))
            server.onShutdownRequest()
            return nil
        }
    }

    /// What a failed request's reply says: an ``InputError`` is a sentence for the user already.
    private static func message(_ error: any Error) -> String {
        (error as? InputError)?.message ?? TerminalText.sanitize(String(describing: error))
    }

    private nonisolated func send(_ message: ServerMessage) {
        if let bytes = try? Wire.encode(message) { connection.send(bytes) }
    }
}
