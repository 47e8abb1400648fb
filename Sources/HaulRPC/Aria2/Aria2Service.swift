import FoundationEssentials
import HaulAria2Wire
import HaulCore

/// aria2's JSON-RPC methods over any ``EngineSession``: reads a request body, carries out its
/// calls against the engine and writes the replies as aria2 does; follows the engine's events
/// for the notifications and the speeds its answers report. Transport-free: the server hands it
/// bodies and WebSocket texts, and tests can too.
public actor Aria2Service {
    /// What the service needs besides the engine.
    public struct Configuration: Sendable {
        public var settings: RPCSettings
        /// Where downloads go when a call names no `dir` (and the first allowed directory).
        public var downloadDirectory: String
        /// haul's own version, reported beside the aria2 version it answers as.
        public var version: String

        public init(settings: RPCSettings, downloadDirectory: String, version: String) {
            self.settings = settings
            self.downloadDirectory = downloadDirectory
            self.version = version
        }
    }

    /// A reply and how the transport sends it.
    public struct Answer: Sendable {
        public let body: [UInt8]
        /// The HTTP status aria2 sends with it (an error of a single call is not 200).
        public let httpStatus: Int
        /// A call carried a wrong secret: the reply waits a moment, against guessing.
        public let unauthorized: Bool
    }

    /// The aria2 version whose interface this one follows (clients show it, some test it).
    public static let aria2Version = "1.36.0"
    /// Downloads removed over RPC kept as results (aria2's `--max-download-result` default).
    static let removedResultsKept = 1000

    let session: any EngineSession
    var configuration: Configuration
    /// How `aria2.shutdown` stops the process; nil where it must not (a TUI a person has open).
    let onShutdown: (@Sendable () -> Void)?
    /// Speeds and connections of running downloads, from the engine's progress events.
    var live: [DownloadID: Aria2Status.Live] = [:]
    /// The state of each download not finished, to tell which notification a change is.
    var kinds: [DownloadID: DownloadState.Kind] = [:]
    /// Downloads removed over RPC, oldest first, reported as `removed` until purged.
    var removedResults: [Download] = []
    var listeners: [Int: @Sendable ([UInt8]) -> Void] = [:]
    var nextListener = 0
    /// When a call was last answered or a WebSocket came or went, by ``clock``.
    var lastActivity: Duration
    /// What activity is timed by (the engine's clock, so tests move it).
    let clock: any MonotonicClock
    let sessionID: String
    var following: Task<Void, Never>?

    /// `onShutdown` is called after `aria2.shutdown` has been answered.
    public init(
        session: any EngineSession, configuration: Configuration, onShutdown: (@Sendable () -> Void)?,
        clock: any MonotonicClock = SystemClock()
    ) {
        self.clock = clock
        lastActivity = clock.now
        self.session = session
        self.configuration = configuration
        self.onShutdown = onShutdown
        var rng = SystemRandomNumberGenerator()
        sessionID = (0..<5).map { _ in String(UInt32.random(in: 0...UInt32.max, using: &rng), radix: 16) }.joined()
    }

    /// Starts following the engine's events (for notifications and speeds).
    public func start() async throws {
        let attachment = try await session.attach(ui: false)
        var kinds: [DownloadID: DownloadState.Kind] = [:]
        try attachment.snapshot.downloads.forEachDownload { d in
            if d.state != .finished { kinds[d.id] = d.state.kind }
        }
        self.kinds = kinds
        following = Task { [weak self] in
            for await event in attachment.events {
                guard let self else { return }
                await self.follow(event)
            }
        }
    }

    public func stop() {
        following?.cancel()
        following = nil
        listeners = [:]
    }

    /// New settings (the secret, the allowed directories, the global options) from here on.
    public func update(_ settings: RPCSettings) { configuration.settings = settings }

    /// Whether the server for these settings listens on `address` (a new address needs a new one).
    public func listensOn(_ address: String) -> Bool { configuration.settings.listen == address }

    /// Sends every notification to `send` (a WebSocket) until ``unlisten(_:)``.
    public func listen(_ send: @escaping @Sendable ([UInt8]) -> Void) -> Int {
        nextListener += 1
        listeners[nextListener] = send
        lastActivity = clock.now
        return nextListener
    }

    public func unlisten(_ key: Int) {
        listeners[key] = nil
        lastActivity = clock.now
    }

    /// How many WebSockets listen now, and when a call or a WebSocket was last seen: an owner
    /// that exits when idle stays while a client such as AriaNg is connected or has just called.
    public var activity: (listening: Int, quietFor: Duration) { (listeners.count, clock.now - lastActivity) }

    // MARK: Requests

    /// Answers a request body: one call or a batch.
    public func answer(_ body: some Collection<UInt8> & Sendable) async -> Answer {
        guard let request = RPCEnvelope.read(body) else {
            return Answer(
                body: RPCEnvelope.reply(id: .null, .failure(.parse)).bytes, httpStatus: 500, unauthorized: false)
        }
        lastActivity = clock.now
        defer { lastActivity = clock.now }
        var scope = RequestScope()
        switch request {
        case .single(let entry):
            let (id, outcome, unauthorized) = await answer(entry, &scope)
            var status = 200
            if case .failure(let error) = outcome {
                status = error.code == 1 || error.code == -32600 ? 400 : error.code == -32601 ? 404 : 500
            }
            return Answer(
                body: RPCEnvelope.reply(id: id, outcome).bytes, httpStatus: status, unauthorized: unauthorized)
        case .batch(let entries):
            var replies: [JSONValue?] = Array(repeating: nil, count: entries.count)
            var anyUnauthorized = false
            var calls: [(index: Int, call: RPCCall)] = []
            for (index, entry) in entries.enumerated() {
                switch entry {
                case .invalid(let error, let id): replies[index] = RPCEnvelope.reply(id: id, .failure(error))
                case .call(let call): calls.append((index, call))
                }
            }
            let outcomes = await performInOrder(calls.map(\.call), &scope)
            for ((index, call), (outcome, unauthorized)) in zip(calls, outcomes) {
                replies[index] = RPCEnvelope.reply(id: call.id, outcome)
                anyUnauthorized = anyUnauthorized || unauthorized
            }
            return Answer(
                body: JSONValue.array(replies.map { $0 ?? .null }).bytes, httpStatus: 200,
                unauthorized: anyUnauthorized)
        }
    }

    private func answer(_ entry: RPCEnvelope.Entry, _ scope: inout RequestScope) async -> (
        JSONValue, Result<JSONValue, RPCError>, Bool
    ) {
        switch entry {
        case .invalid(let error, let id): return (id, .failure(error), false)
        case .call(let call):
            let (outcome, unauthorized) = await perform(call, &scope)
            return (call.id, outcome, unauthorized)
        }
    }

    /// Carries out one call, the secret checked first (the two `system.list…` methods need
    /// none; `system.multicall` takes none itself and checks each call inside).
    func perform(_ call: RPCCall, _ scope: inout RequestScope) async -> (Result<JSONValue, RPCError>, Bool) {
        var call = call
        switch call.method {
        case "system.listMethods": return (.success(.array(Self.methods.map(JSONValue.string))), false)
        case "system.listNotifications": return (.success(.array(Aria2Notification.all.map(JSONValue.string))), false)
        case "system.multicall": return await multicall(call, &scope)
        default: break
        }
        let token = call.takeToken() ?? ""
        guard SecretCheck.matches(token, configuration.settings.secret) else { return (.failure(.unauthorized), true) }
        do {
            return (.success(try await dispatch(call, &scope)), false)
        } catch {
            return (.failure(error), false)
        }
    }

    /// `system.multicall([{methodName, params}, …])`: each result in a one-element array, each
    /// failure as its error struct.
    private func multicall(_ call: RPCCall, _ scope: inout RequestScope) async -> (Result<JSONValue, RPCError>, Bool) {
        let calls: [JSONValue]
        do {
            calls = try call.required(0) { $0.array }
        } catch {
            return (.failure(error), false)
        }
        var results: [JSONValue?] = Array(repeating: nil, count: calls.count)
        var anyUnauthorized = false
        var inner: [(index: Int, call: RPCCall)] = []
        for (index, entry) in calls.enumerated() {
            guard let method = entry["methodName"]?.string else {
                results[index] = Self.fault(.failed("Missing methodName."))
                continue
            }
            guard method != "system.multicall" else {
                results[index] = Self.fault(.failed("Recursive system.multicall forbidden."))
                continue
            }
            inner.append((index, RPCCall(method: method, params: entry["params"]?.array ?? [], id: .null)))
        }
        let outcomes = await performInOrder(inner.map(\.call), &scope)
        for ((index, _), (outcome, unauthorized)) in zip(inner, outcomes) {
            anyUnauthorized = anyUnauthorized || unauthorized
            switch outcome {
            case .success(let value): results[index] = .array([value])
            case .failure(let error): results[index] = Self.fault(error)
            }
        }
        return (.success(.array(results.map { $0 ?? .null })), anyUnauthorized)
    }

    /// Carries out `calls` in order; a run of `aria2.addUri` calls is added as one command, so a
    /// client adding 1,000 URLs in one request costs one write to the journal, not 1,000.
    private func performInOrder(_ calls: [RPCCall], _ scope: inout RequestScope) async -> [(
        Result<JSONValue, RPCError>, Bool
    )] {
        var outcomes: [(Result<JSONValue, RPCError>, Bool)] = []
        outcomes.reserveCapacity(calls.count)
        var index = 0
        while index < calls.count {
            var end = index
            while end < calls.count, calls[end].method == "aria2.addUri" { end += 1 }
            guard end - index > 1 else {
                outcomes.append(await perform(calls[index], &scope))
                index += 1
                continue
            }
            var allowed: [RPCCall] = []
            var refused = Set<Int>()
            for offset in index..<end {
                var call = calls[offset]
                let token = call.takeToken() ?? ""
                if SecretCheck.matches(token, configuration.settings.secret) {
                    allowed.append(call)
                } else {
                    refused.insert(offset)
                }
            }
            var added = await addUris(allowed, &scope).makeIterator()
            for offset in index..<end {
                if refused.contains(offset) {
                    outcomes.append((.failure(.unauthorized), true))
                } else {
                    outcomes.append((added.next() ?? .failure(.failed("not added")), false))
                }
            }
            index = end
        }
        return outcomes
    }

    /// A running or seeding torrent's files and peers; nil for anything else.
    func torrentDetails(_ d: Download) async -> TorrentDetails? {
        guard d.isTorrent else { return nil }
        return try? await session.torrentDetails(d.id)
    }

    private static func fault(_ error: RPCError) -> JSONValue {
        .object(["code": .int(Int64(error.code)), "message": .string(error.message)])
    }

    private func dispatch(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        switch call.method {
        case "aria2.addUri": return try await addUri(call, &scope)
        case "aria2.addTorrent": return try await addTorrent(call, &scope)
        case "aria2.addMetalink": return try await addMetalink(call, &scope)
        case "aria2.remove", "aria2.forceRemove": return try await remove(call, &scope)
        case "aria2.pause", "aria2.forcePause": return try await pause(call, &scope)
        case "aria2.pauseAll", "aria2.forcePauseAll": return try await perform(.pause(.all), &scope, answer: "OK")
        case "aria2.unpause": return try await unpause(call, &scope)
        case "aria2.unpauseAll": return try await perform(.resume(.all), &scope, answer: "OK")
        case "aria2.tellStatus": return try await tellStatus(call, &scope)
        case "aria2.getUris": return Aria2Status.uris(try await find(call, &scope).download)
        case "aria2.getFiles":
            let d = try await find(call, &scope).download
            return Aria2Status.files(d, details: await torrentDetails(d))
        case "aria2.getPeers":
            let d = try await find(call, &scope).download
            return Aria2Status.peers(await torrentDetails(d))
        case "aria2.getServers":
            let d = try await find(call, &scope).download
            return Aria2Status.servers(d, live: live[d.id])
        case "aria2.tellActive": return try await tellActive(call, &scope)
        case "aria2.tellWaiting": return try await tellPage(call, &scope, stopped: false)
        case "aria2.tellStopped": return try await tellPage(call, &scope, stopped: true)
        case "aria2.changePosition": return try await changePosition(call, &scope)
        case "aria2.changeUri": return try await changeUri(call, &scope)
        case "aria2.getOption": return try await getOption(call, &scope)
        case "aria2.changeOption": return try await changeOption(call, &scope)
        case "aria2.getGlobalOption": return try await globalOptions(&scope)
        case "aria2.changeGlobalOption": return try await changeGlobalOption(call, &scope)
        case "aria2.getGlobalStat": return try await globalStat(&scope)
        case "aria2.purgeDownloadResult": return try await purge(&scope)
        case "aria2.removeDownloadResult": return try await removeResult(call, &scope)
        case "aria2.getVersion":
            return .object([
                "enabledFeatures": .array(["BitTorrent", "HTTPS", "Message Digest", "Metalink"].map(JSONValue.string)),
                "version": .string(Self.aria2Version), "haul": .string(configuration.version),
            ])
        case "aria2.getSessionInfo": return .object(["sessionId": .string(sessionID)])
        case "haul.getNetwork": return try await haulNetwork()
        case "haul.command": return try await haulCommand(call, &scope)
        case "aria2.saveSession":
            do { try await session.save() } catch { throw Self.failure(error) }
            return .string("OK")
        case "aria2.shutdown", "aria2.forceShutdown":
            // Answered first: the engine stops (every byte kept) once the reply is on its way.
            guard let onShutdown else { throw .failed("haul's TUI is open here: quit it from there") }
            Task {
                try? await clock.sleep(for: .milliseconds(200))
                onShutdown()
            }
            return .string("OK")
        default:
            throw .noSuchMethod(call.method)
        }
    }

    /// Every method, as `system.listMethods` names them.
    static let methods = [
        "aria2.addUri", "aria2.addTorrent", "aria2.getPeers", "aria2.addMetalink", "aria2.remove", "aria2.pause",
        "aria2.forcePause", "aria2.pauseAll", "aria2.forcePauseAll", "aria2.unpause", "aria2.unpauseAll",
        "aria2.forceRemove", "aria2.changePosition", "aria2.tellStatus", "aria2.getUris", "aria2.getFiles",
        "aria2.getServers", "aria2.tellActive", "aria2.tellWaiting", "aria2.tellStopped", "aria2.getOption",
        "aria2.changeUri", "aria2.changeOption", "aria2.getGlobalOption", "aria2.changeGlobalOption",
        "aria2.purgeDownloadResult", "aria2.removeDownloadResult", "aria2.getVersion", "aria2.getSessionInfo",
        "aria2.shutdown", "aria2.forceShutdown", "aria2.getGlobalStat", "aria2.saveSession", "system.multicall",
        "system.listMethods", "system.listNotifications", "haul.getNetwork", "haul.command",
    ]

    /// An engine error as a call's failure: its sentence.
    static func failure(_ error: any Error) -> RPCError {
        if let input = error as? InputError { return .failed(input.message) }
        return .failed(String(describing: error))
    }

    // MARK: Events

    private func follow(_ event: EngineEvent) {
        switch event {
        case .progress(let sample):
            live[sample.id] = Aria2Status.Live(
                bytesPerSecond: Int64(sample.bytesPerSecond.rounded()), connections: sample.connections ?? 1)
        case .added(let d), .updated(let d):
            let old = kinds[d.id]
            if d.state == .finished { kinds[d.id] = nil } else { kinds[d.id] = d.state.kind }
            if d.state != .downloading { live[d.id] = nil }
            if let name = Aria2Notification.forChange(from: old, to: d.state.kind) {
                // A torrent's files are complete: aria2 tells both (seeding may go on).
                if name == Aria2Notification.complete, d.isTorrent { notify(Aria2Notification.btComplete, d.id) }
                notify(name, d.id)
            }
        case .removed(let id):
            removedFromList(id)
        case .removedMany(let ids):
            for id in ids { removedFromList(id) }
        case .notice, .network, .moved:
            break
        }
    }

    private func removedFromList(_ id: DownloadID) {
        live[id] = nil
        // A download stopped before it finished: aria2 calls that a stop.
        if kinds.removeValue(forKey: id) != nil { notify(Aria2Notification.stop, id) }
    }

    private func notify(_ method: String, _ id: DownloadID) {
        guard !listeners.isEmpty else { return }
        let bytes = RPCEnvelope.notification(method, gid: GID.of(id)).bytes
        for send in listeners.values { send(bytes) }
    }
}

/// One request's view of the engine's list: taken by the first call of a batch or multicall that
/// needs it and shared by the rest; a call that changes something lets it go.
struct RequestScope {
    var snapshot: EngineSnapshot?
}
