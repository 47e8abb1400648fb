import FoundationEssentials
import HaulAria2Wire
import HaulCore

/// An engine on another machine (a haul serving RPC, or aria2c) as an ``EngineSession``: what
/// the UI and every command use, through aria2's JSON-RPC.
///
/// Its list is what the last look at the engine showed. While a UI is attached it looks again
/// every second something runs (``PollPace``), at once when a WebSocket notification says
/// something changed, and after each command; a lost engine is tried again with growing waits
/// (``ReconnectSchedule``) while the header says "reconnecting…". Each look is one
/// `system.multicall`.
public actor RPCSession: EngineSession {
    /// Where the engine is and how to reach it.
    public struct Target: Sendable {
        public var address: RPCAddress
        public var secret: String?
        /// What the header calls it: a saved remote's name, else `host:port`.
        public var place: String
        /// `SSL_CERT_FILE`: the certificates a `wss://` or `https://` engine is checked against.
        public var trustedCertificates: String?

        public init(address: RPCAddress, secret: String?, place: String? = nil, trustedCertificates: String? = nil) {
            self.address = address
            self.secret = secret
            self.place = place ?? address.place
            self.trustedCertificates = trustedCertificates
        }
    }

    let transport: RPCTransport
    let target: Target
    /// What looks are paced by.
    let clock: any MonotonicClock
    /// The same clock as local time: when a download was first seen.
    let wallClock: WallClock
    var link: RemoteLink
    var network: NetworkStatus
    var list = RemoteList()
    /// Counts of the last look (`getGlobalStat`): a change means the lists must be read whole.
    var lastCounts: [Int64] = []
    var lastFullLook: Duration
    var needsFullLook = true
    var subscribers: [Int: EngineEvents.Sender] = [:]
    var nextSubscriber = 0
    var looking: Task<Void, Never>?
    var listening: Task<Void, Never>?
    var hearsNotifications = false
    /// Set to make the look loop look early (a notification, a command).
    var woken = false

    /// Reaches the engine and asks what it is (`aria2.getVersion`); throws the sentence that
    /// says why it cannot. Looks are timed by `clock`; `environment` gives the local time zone.
    public static func connect(
        _ target: Target, clock: any MonotonicClock, environment: [String: String]
    ) async throws(RemoteFailure) -> RPCSession {
        let transport = RPCTransport(
            address: target.address, secret: target.secret, trustedCertificates: target.trustedCertificates)
        let version = try await transport.call(RemoteCall("aria2.getVersion"))
        let engine: RemoteLink.Engine
        if let haul = version["haul"]?.string {
            engine = .haul(version: TerminalText.sanitize(haul))
        } else {
            engine = .aria2(version: TerminalText.sanitize(version["version"]?.string ?? "?"))
        }
        return RPCSession(
            transport: transport, target: target, engine: engine, clock: clock,
            wallClock: WallClock(environment: environment, clock: clock))
    }

    private init(
        transport: RPCTransport, target: Target, engine: RemoteLink.Engine, clock: any MonotonicClock,
        wallClock: WallClock
    ) {
        self.transport = transport
        self.target = target
        self.clock = clock
        self.wallClock = wallClock
        lastFullLook = clock.now
        link = RemoteLink(place: target.place, engine: engine)
        network = NetworkStatus(mode: .off)
        network.remote = link
    }

    /// Which engine answers: haul (its own features work) or aria2.
    public var engine: RemoteLink.Engine { link.engine }

    // MARK: EngineSession

    public func attach(ui: Bool) async throws -> EngineAttachment {
        if looking == nil {
            // The running downloads first, so the first frame shows them; the look loop's first
            // look, at once, brings the rest (1,000 waiting ones take a moment to read).
            try await look(full: false, first: true)
            needsFullLook = true
        }
        nextSubscriber += 1
        let key = nextSubscriber
        let (events, sender) = EngineEvents.makeStream { [weak self] in
            Task { await self?.unsubscribe(key) }
        }
        subscribers[key] = sender
        startLooking()
        let snapshot = EngineSnapshot(downloads: DownloadList(list.ordered), network: network)
        return EngineAttachment(snapshot: snapshot, away: nil, events: events)
    }

    public func snapshot() async throws -> EngineSnapshot {
        if looking == nil { try await look(full: true) }
        return EngineSnapshot(downloads: DownloadList(list.ordered), network: network)
    }

    public func download(_ id: DownloadID) async throws -> Download? {
        let gid = list.gid(for: id)
        let answers = try await transport.multicall([
            RemoteCall("aria2.tellStatus", [.string(gid)]), RemoteCall("aria2.getOption", [.string(gid)]),
        ])
        guard case .success(let status) = answers[0], var d = RemoteDownload(status, position: 0)?.download else {
            if case .failure(let failure) = answers[0], failure.isLinkProblem { throw failure }
            return nil
        }
        if let listed = list.downloads[d.id] {
            d.addedAt = listed.addedAt
            d.queueOrder = listed.queueOrder
        }
        if case .success(let options) = answers[1], let limit = RemoteDownload.number(options["max-download-limit"]),
            limit > 0
        {
            d.speedLimit = limit
        }
        return d
    }

    @discardableResult
    public func perform(_ command: EngineCommand) async throws -> [DownloadID] {
        let ids = try await RemoteCommands(transport: transport, list: list, engine: link.engine, clock: clock)
            .perform(command)
        needsFullLook = true
        if looking != nil {
            woken = true
        } else {
            try? await look(full: true)
        }
        return ids
    }

    private func unsubscribe(_ key: Int) { subscribers[key] = nil }

    public func save() async throws {}

    public func refreshedNetworkStatus() async throws -> NetworkStatus {
        try await look(full: true)
        return network
    }

    public func waitUntilIdle() async throws {
        while true {
            try await look(full: true)
            if !list.downloads.values.contains(where: { $0.state == .waiting || $0.state == .downloading }) { return }
            try await clock.sleep(for: .seconds(1))
        }
    }

    public func detachUI() async {
        looking?.cancel()
        listening?.cancel()
        looking = nil
        listening = nil
        for sender in subscribers.values { sender.finish() }
        subscribers = [:]
    }

    // MARK: Looking

    /// One look at the engine: its counts and running downloads, and when `full` (or the counts
    /// changed) every download. Sends what changed to every attached UI.
    func look(full: Bool, first: Bool = false) async throws(RemoteFailure) {
        var calls = [
            RemoteCall("aria2.getGlobalStat"),
            RemoteCall("aria2.tellActive", [Self.keys]),
        ]
        let whole = !first && (full || needsFullLook)
        if whole {
            calls += [
                RemoteCall("aria2.tellWaiting", [.int(0), .int(100_000), Self.keys]),
                RemoteCall("aria2.tellStopped", [.int(0), .int(100_000), Self.keys]),
                // The header's status: a haul's own, else aria2's global limit.
                RemoteCall(link.engine.isHaul ? "haul.getNetwork" : "aria2.getGlobalOption"),
            ]
        }
        let answers = try await transport.multicall(calls)
        let stat = try answers[0].get()
        let newCounts = ["numActive", "numWaiting", "numStopped"].map { RemoteDownload.number(stat[$0]) ?? -1 }
        if !whole, !first, newCounts != lastCounts {
            // Something came, went or changed lists: read them whole now.
            lastCounts = newCounts
            try await look(full: true)
            return
        }
        if !first { lastCounts = newCounts }
        var statuses = try Self.listed(answers[1])
        if whole {
            statuses += try Self.listed(answers[2])
            statuses += try Self.listed(answers[3])
        }
        let fetched = statuses.enumerated().compactMap { RemoteDownload($0.element, position: $0.offset) }
        var events = list.apply(fetched, complete: whole, now: wallClock.now())
        if whole {
            needsFullLook = false
            lastFullLook = clock.now
            var status = network
            if link.engine.isHaul {
                if case .success(.string(let json)) = answers[4],
                    let haul = try? JSONDecoder().decode(NetworkStatus.self, from: Data(json.utf8))
                {
                    status = haul
                    status.rpcAddress = nil
                }
            } else if case .success(let options) = answers[4] {
                let limit = RemoteDownload.number(options["max-overall-download-limit"]) ?? 0
                status.speedLimit = limit > 0 ? SpeedLimit(rate: limit) : nil
                status.speedLimitActive = limit > 0
            }
            status.remote = link
            if status != network {
                network = status
                events.append(.network(status))
            }
        }
        send(events)
    }

    private static let keys = JSONValue.array(RemoteDownload.listKeys.map(JSONValue.string))

    /// The downloads of one list call; a failed call fails the look.
    private static func listed(_ answer: Result<JSONValue, RemoteFailure>) throws(RemoteFailure) -> [JSONValue] {
        let value = try answer.get()
        guard let items = value.array else { throw .malformed("the engine sent a list that is not a list") }
        return items
    }

    func send(_ events: [EngineEvent]) {
        guard !events.isEmpty else { return }
        for sender in subscribers.values { sender.send(events) }
    }

    /// A look is taking long; a link already failing stays as it is.
    private func markSlow() {
        if link.state == .connected { setLink(.slow) }
    }

    /// The link's state changed: the header says so.
    func setLink(_ state: RemoteLink.State) {
        guard link.state != state else { return }
        link.state = state
        network.remote = link
        send([.network(network)])
    }

    private func startLooking() {
        guard looking == nil else { return }
        looking = Task { [weak self] in await self?.lookLoop() }
        listening = Task { [weak self] in await self?.listenLoop() }
    }

    private func lookLoop() async {
        var failures = 0
        while !Task.isCancelled {
            let started = clock.now
            woken = false
            // An answer that takes more than two seconds is shown as slow while it is awaited.
            let slowWatch = Task { [weak self, clock] in
                try await clock.sleep(for: RemoteLink.slowAnswer)
                await self?.markSlow()
            }
            defer { slowWatch.cancel() }
            do {
                try await look(full: needsFullLook || started - lastFullLook > .seconds(30))
                slowWatch.cancel()
                if failures > 0 || link.state == .slow {
                    failures = 0
                    setLink(.connected)
                }
            } catch {
                slowWatch.cancel()
                if error.isLinkProblem {
                    failures += 1
                    needsFullLook = true
                    setLink(.reconnecting(problem: error.description))
                }
            }
            let running = list.downloads.values.contains { $0.state == .downloading }
            let wait =
                failures > 0
                ? ReconnectSchedule.wait(afterFailures: failures)
                : PollPace.interval(anyRunning: running, hearsNotifications: hearsNotifications)
            // Until the next look is due, or something wakes it, but not sooner than the
            // shortest gap between looks. A failed link is not woken early.
            let due = started + wait
            let earliest = started + PollPace.shortest
            while !Task.isCancelled {
                let now = clock.now
                if now >= due || (woken && failures == 0 && now >= earliest) { break }
                try? await clock.sleep(for: .milliseconds(50))
            }
        }
    }

    private func listenLoop() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await RPCNotifications.listen(
                    to: target.address, trustedCertificates: target.trustedCertificates,
                    opened: { [weak self] in
                        await self?.setHearing(true)
                    },
                    heard: { [weak self] _ in
                        await self?.heard()
                    })
                failures = 0
            } catch {}
            // A WebSocket that closes is often the engine going away: look now, not in 5 s.
            if hearsNotifications { woken = true }
            hearsNotifications = false
            failures += 1
            try? await clock.sleep(for: ReconnectSchedule.wait(afterFailures: failures))
        }
    }

    private func setHearing(_ hearing: Bool) { hearsNotifications = hearing }

    private func heard() {
        needsFullLook = true
        woken = true
    }
}
