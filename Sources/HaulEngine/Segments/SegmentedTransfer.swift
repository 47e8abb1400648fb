import HaulCore
import HaulHTTP
import HaulStore
import Synchronization

/// Fetches the rest of one file over several connections, each writing its own piece of the one
/// `.part` (see ``SegmentPlan``), until the file is whole or the transfer stops.
///
/// It begins with the connection whose response showed that ranges work, and adds connections
/// while they pay off (``SegmentTuning``), within the download's limit and the server's room
/// (``ServerConnections``). Each range response is checked (``RangeResponseCheck``) before a byte
/// of it is written. A server that turns a connection away leaves the download with fewer; a
/// changed file ends the run so it starts over. Once the file has more than one piece, the map of
/// what is on disk is saved as the data behind it is synced, never before.
actor SegmentedTransfer {
    /// What a segmented run needs; the job's target carries the first response's validators.
    struct Setup: Sendable {
        let engine: Engine
        let transport: ClientTransport
        let policy: TransferPolicy
        let configuration: EngineConfiguration
        let job: TransferJob
        let name: String
        let writer: PartFile.Writer
        let total: Int64
        /// Where the first response came from: further connections go straight there.
        let sourceURL: String
        let limit: ConnectionLimit
        let servers: ServerConnections
        /// The speed cap all transfers share: no connection is added to go faster than it.
        let throttle: Throttle
        /// The run stays on one connection.
        var oneConnection = false
        var tuning = SegmentTuning()
    }

    /// Why a run ended without the whole file, other than a failure to retry.
    enum Stop: Error {
        /// The file changed on the server, or its ranges no longer work: start over.
        case startOver(StartOverReason)
    }

    /// A connection's run of failures without a byte in between, after which it stops.
    static let failuresPerConnection = 3

    private let setup: Setup
    private var plan: SegmentPlan
    private let server: String
    private let spawner: AsyncStream<Int>.Continuation
    /// Connections running, and the responses of those writing now.
    private var live: Set<Int> = []
    private var writing: [Int: ClientResponse] = [:]
    private var nextWorker = 0
    /// Lowered when the server turns a connection away.
    private var cap: Int
    private var retiring: Set<Int> = []
    private var replacements = 0
    private var rates: [Int: RateWindow] = [:]
    /// Each connection's speed over its last piece: what it would fetch another at.
    private var lastRates: [Int: Double] = [:]
    private let startedAt = Monotonic.seconds()
    private var ending: Error?
    /// What the last saved map holds, and whether one is being saved.
    private var savedReceived: Int64 = -1
    private var lastSave = Monotonic.seconds()
    private var saving = false
    private var lastCount = -1
    /// The speed just before the last connections were added, when, and how many there were;
    /// nil once they are judged. Set when some were found not to make the download faster.
    private var added: (baseline: Double, at: Double, before: Int)?
    private var gainless = false
    /// Connections with nothing to do, waiting for the next change that may give them work.
    private var idle: [CheckedContinuation<Void, Never>] = []

    private init(_ setup: Setup, plan: SegmentPlan, spawner: AsyncStream<Int>.Continuation) {
        self.setup = setup
        self.plan = plan
        self.spawner = spawner
        cap = setup.oneConnection ? 1 : StateDocument.Settings.connectionRange.upperBound
        server = URLParts(setup.sourceURL).map { "\($0.host.lowercased()):\($0.port ?? 0)" } ?? setup.sourceURL
        if setup.job.segments != nil { savedReceived = plan.received }
    }

    /// Runs until the file is whole (returns its map) or the transfer stops: throws the failure
    /// that ended it, ``Stop``, or `CancellationError`. `first` is a response already open for
    /// the range it covers; without one the first connection asks for a piece itself. `saved`
    /// hears of each map made durable.
    static func run(
        _ setup: Setup, plan: SegmentPlan, first: (ClientResponse, Range<Int64>)?,
        saved: @escaping @Sendable ([Segment]) -> Void = { _ in }
    ) async throws -> [Segment] {
        let (spawns, spawner) = AsyncStream.makeStream(of: Int.self)
        let transfer = SegmentedTransfer(setup, plan: plan, spawner: spawner)
        let firstWorker = await transfer.enlist(first: true)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await transfer.watch() }
            group.addTask { await transfer.work(firstWorker, first: first) }
            for await worker in spawns {
                group.addTask { await transfer.work(worker, first: nil) }
            }
            group.cancelAll()
        }
        return try await transfer.conclude(saved: saved)
    }

    // MARK: Connections

    /// Takes a number for a new connection and counts it at the server.
    private func enlist(first: Bool) -> Int {
        let worker = nextWorker
        nextWorker += 1
        live.insert(worker)
        if first { setup.servers.openFirst(server) }
        return worker
    }

    /// One connection: fetches pieces until none is left for it, it is turned away or retired,
    /// or the run ends.
    private func work(_ worker: Int, first: (ClientResponse, Range<Int64>)?) async {
        var pending = first
        var failures = 0
        while !Task.isCancelled, ending == nil, !retiring.contains(worker) {
            let response: ClientResponse
            let range: Range<Int64>
            if let (opened, openedRange) = pending {
                pending = nil
                (response, range) = (opened, openedRange)
                if plan.piece(of: worker) == nil { _ = plan.claim(worker, pieceAt: plan.pieces[0].start) }
            } else {
                guard let assigned = assign(worker) else {
                    // Nothing worth taking now; while others write, a slow one's tail may be later.
                    if writing.isEmpty || plan.isComplete { break }
                    await waitForChange()
                    continue
                }
                range = assigned
                do {
                    response = try await setup.policy.send(
                        setup.job.target, range: range, from: setup.sourceURL, over: setup.transport)
                } catch {
                    plan.release(worker)
                    if Task.isCancelled { break }
                    failures += 1
                    if await !shouldGoOn(worker, after: error, failures: failures) { break }
                    continue
                }
                guard accept(response, for: worker, asked: range) else { break }
            }
            let before = plan.piece(of: worker)?.next ?? range.lowerBound
            do {
                try await write(response, for: worker, range: range)
                if (plan.piece(of: worker)?.next ?? range.upperBound) > before { failures = 0 }
            } catch {
                if Task.isCancelled || error is CancellationError { break }
                if (plan.piece(of: worker)?.next ?? before) > before { failures = 0 }
                plan.release(worker)
                failures += 1
                if await !shouldGoOn(worker, after: error, failures: failures) { break }
            }
        }
        plan.release(worker)
        leave(worker)
    }

    /// The next bytes for `worker`: a piece nobody has, or part of one in flight.
    private func assign(_ worker: Int) -> Range<Int64>? {
        let now = Monotonic.seconds()
        // Recent speeds: a connection that went quiet after a first burst is slow now.
        var measured = lastRates
        for (other, window) in rates { measured[other] = window.rate(now: now, over: RateWindow.recent) }
        switch plan.nextAssignment(
            for: worker, rates: measured, setup: setup.tuning.requestSetup)
        {
        case .unowned(let start)?:
            return plan.claim(worker, pieceAt: start)
        case .split(let victim, let at)?:
            // A response being written stops at the cut (or where it got to); one still on its
            // way is stopped there when it arrives (`write`).
            let stopped = writing[victim]?.stopWriting(at: at) ?? at
            return plan.split(victim, at: stopped, for: worker)
        case nil:
            return nil
        }
    }

    /// Checks a range response; false (and the response dropped) when it is not written.
    private func accept(_ response: ClientResponse, for worker: Int, asked: Range<Int64>) -> Bool {
        let target = setup.job.target
        let verdict = RangeResponseCheck.check(
            response.head, asked: asked, total: setup.total, etag: target.etag, lastModified: target.lastModified)
        guard verdict != .accepted else { return true }
        response.drop()
        plan.release(worker)
        switch verdict {
        case .accepted:
            return true
        case .fileChanged:
            end(Stop.startOver(.remoteChanged))
        case .wrongRange(let reason):
            turnedAway(worker, TransferFailure(reason))
        case .refused(let failure):
            turnedAway(worker, failure)
        }
        return false
    }

    /// A connection was turned away: the download goes on with the others, and the user hears
    /// of it. When it was the only one, the run ends: with that failure (the transfer retries),
    /// or, when the server's ranges cannot be used, to start over on one connection.
    private func turnedAway(_ worker: Int, _ failure: TransferFailure) {
        let others = live.count - 1
        guard others > 0 else {
            // Ranges this server cannot be trusted with: the file is fetched whole, on one connection.
            switch failure.reason {
            case .rangesRefused: end(Stop.startOver(.rangesIgnored))
            case .wrongRange: end(Stop.startOver(.rangeMismatch))
            default: end(failure)
            }
            return
        }
        guard others < cap else { return }
        cap = others
        let (engine, id, generation) = (setup.engine, setup.job.id, setup.job.generation)
        Task { await engine.transferNotice(id, generation, .fewerConnections(others, because: failure.reason)) }
    }

    /// Writes `response` into `worker`'s piece until the piece is done or cut short.
    private func write(_ response: ClientResponse, for worker: Int, range: Range<Int64>) async throws {
        writing[worker] = response
        rates[worker] = RateWindow(at: Monotonic.seconds(), position: range.lowerBound)
        defer {
            if let rate = rates[worker]?.rate(now: Monotonic.seconds()), rate > 1 { lastRates[worker] = rate }
            writing[worker] = nil
            rates[worker] = nil
            wakeIdle()
        }
        if let end = plan.piece(of: worker)?.end, end < range.upperBound { _ = response.stopWriting(at: end) }
        let position: Int64
        do {
            position = try await withTaskCancellationHandler {
                if case .finished(let size, _) = try response.startWriting(
                    to: setup.writer, at: range.lowerBound, total: range.upperBound)
                {
                    return size
                }
                while true {
                    if case .finished(let size) = try await response.nextEvent() { return size }
                }
            } onCancel: {
                response.cancel()
            }
        } catch {
            plan.advance(worker, to: response.position)
            throw error
        }
        plan.advance(worker, to: position)
        if response.wasCut { response.cancel() }
        if let piece = plan.piece(of: worker), piece.remaining > 0, !response.wasCut {
            throw TransferFailure(.closedEarly(received: position - range.lowerBound, expected: Int64(range.count)))
        }
    }

    /// After a connection's failure: whether it tries again (after a pause), or stops. A failure
    /// that no retry mends ends the run; so does the last connection giving up.
    private func shouldGoOn(_ worker: Int, after error: Error, failures: Int) async -> Bool {
        let failure = TransferFailure.classify(error, stallTimeout: setup.configuration.stallTimeout)
        guard failure.isTransient, !failure.isDiskFull else {
            end(failure)
            return false
        }
        guard failures < Self.failuresPerConnection else {
            if live.count == 1 { end(failure) }
            return false
        }
        try? await Task.sleep(for: .milliseconds(250 * failures))
        return !Task.isCancelled
    }

    /// Waits until a piece ends, the rates are measured again or the run ends.
    private func waitForChange() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { idle.append($0) }
        } onCancel: {
            Task { await self.wakeIdle() }
        }
    }

    private func wakeIdle() {
        let waiting = idle
        idle = []
        for waiter in waiting { waiter.resume() }
    }

    private func leave(_ worker: Int) {
        live.remove(worker)
        retiring.remove(worker)
        setup.servers.close(server)
        wakeIdle()
        if live.isEmpty { spawner.finish() }
    }

    /// Ends the run: every connection stops.
    private func end(_ error: Error) {
        if ending == nil { ending = error }
        for response in writing.values { response.cancel() }
        wakeIdle()
    }

    // MARK: Watching

    /// Every tick while the run lasts: positions, progress, more or fewer connections, the map.
    private func watch() async {
        let tick = min(max(setup.configuration.progressInterval, 0.1), 0.5)
        // Two early looks: more connections are judged by the speed between them (past a burst
        // a server may send a new response first).
        var waits = [setup.tuning.firstLook / 2, setup.tuning.firstLook / 2]
        while !Task.isCancelled, !live.isEmpty {
            try? await Task.sleep(for: .milliseconds(Int64((waits.isEmpty ? tick : waits.removeFirst()) * 1000)))
            let now = Monotonic.seconds()
            for (worker, response) in writing {
                let position = response.position
                plan.advance(worker, to: position)
                rates[worker]?.record(at: now, position: position)
            }
            report()
            wakeIdle()
            if ending == nil {
                dropExcessConnections()
                replaceSlowConnections(now: now)
                await addConnections(now: now)
                judgeAddedConnections(now: now)
            }
            if shouldSave(now: now) { await saveMap() }
        }
    }

    private func report() {
        let (engine, id, generation) = (setup.engine, setup.job.id, setup.job.generation)
        let received = plan.received
        let count = writing.count
        let now = Monotonic.seconds()
        let segments =
            plan.pieces.count > 1
            ? plan.pieces.map { piece in
                LiveSegment(
                    Segment(start: piece.start, end: piece.end, received: piece.next - piece.start),
                    bytesPerSecond: piece.owner.flatMap { writing[$0] == nil ? nil : rates[$0]?.rate(now: now) })
            } : nil
        let countChanged = count != lastCount
        lastCount = count
        Task {
            await engine.transferSegmentProgress(
                id, generation, received: received, connections: count, segments: segments,
                countChanged: countChanged)
        }
    }

    private func addConnections(now: Double) async {
        // Until the connections added last are judged, no more.
        guard !gainless, added == nil else { return }
        let total = rates.values.reduce(0) { $0 + $1.latestRate }
        let wanted = min(setup.limit.current, cap) - live.count
        // Under a speed limit, a connection is added only once the limit is known not to be
        // what holds the download back: while it makes readers wait, more connections cannot help.
        if let limit = setup.throttle.rate, total == 0 || total >= 0.8 * limit || setup.throttle.isHolding { return }
        guard wanted > 0,
            setup.tuning.wantsMoreConnections(
                remaining: setup.total - plan.received, rate: total, running: now - startedAt)
        else { return }
        var adding = wanted
        do {
            var baseline = total
            if total >= setup.tuning.fastLink, live.count == 1 {
                // On a fast link the bottleneck is usually shared: one more is tried first,
                // against the speed of the one over half a second.
                guard rates.values.allSatisfy({ now - $0.since >= RateWindow.recent }) else { return }
                baseline = rates.values.reduce(0) { $0 + $1.rate(now: now, over: RateWindow.recent) }
                adding = 1
            }
            added = (baseline: baseline, at: now, before: live.count)
        }
        // Before a byte is written out of order, the state must know the file is in pieces: a
        // crash then resumes from the map, not from the `.part`'s size.
        if savedReceived < 0 { markInPieces() }
        for _ in 0..<adding {
            guard
                plan.nextAssignment(for: nextWorker, setup: setup.tuning.requestSetup)
                    != nil,
                setup.servers.openMore(server)
            else { return }
            spawner.yield(enlist(first: false))
        }
    }

    /// Half a second after connections were added: unless they made the download faster (a
    /// server that caps each connection), the bottleneck is shared (the disk, the CPU, the link)
    /// and the download goes back to as many as it had, and adds no more.
    private func judgeAddedConnections(now: Double) {
        guard let added, now - added.at >= setup.tuning.judgeAfter else { return }
        self.added = nil
        let total = rates.values.reduce(0) { $0 + $1.rate(now: now, over: RateWindow.recent) }
        guard !setup.tuning.connectionsPay(before: added.baseline, after: total) else { return }
        gainless = true
        cap = added.before
        dropExcessConnections()
    }

    /// Above the download's limit (lowered while it runs): the newest connections stop where
    /// they are; the others fetch what they leave.
    private func dropExcessConnections() {
        let staying = live.subtracting(retiring)
        let excess = staying.count - max(1, min(setup.limit.current, cap))
        guard excess > 0 else { return }
        for worker in staying.sorted().suffix(excess) {
            retiring.insert(worker)
            _ = writing[worker]?.stopWriting(at: 0)
        }
        wakeIdle()
    }

    /// A connection much slower than the others is stopped where it is, and a fresh one takes
    /// over its piece (a server's slow path is often one connection's, not the server's).
    private func replaceSlowConnections(now: Double) {
        let measured = rates.mapValues { $0.rate(now: now) }
        let ages = rates.mapValues { now - $0.since }
        for worker in setup.tuning.slowConnections(rates: measured, measuredFor: ages)
        where replacements < 2 * setup.limit.current && !retiring.contains(worker) {
            guard let response = writing[worker] else { continue }
            replacements += 1
            retiring.insert(worker)
            _ = response.stopWriting(at: 0)
            if setup.servers.openMore(server) { spawner.yield(enlist(first: false)) }
        }
    }

    // MARK: The map

    /// A map is saved once the file has more than one piece, when a megabyte per connection or
    /// a second's worth has come since the last.
    private func shouldSave(now: Double) -> Bool {
        guard !saving, plan.pieces.count > 1 || savedReceived >= 0 else { return false }
        let unsaved = plan.received - max(savedReceived, 0)
        guard unsaved > 0 else { return false }
        return unsaved >= Int64(max(1, writing.count)) << 20 || now - lastSave >= 1
    }

    /// Journals a map that claims nothing yet, at once (a `kill -9` cannot lose it, and waiting
    /// for the disk would hold back the new connections): the file is in pieces. It claims no
    /// byte, so it needs no sync; should a power loss take it, the `.part`'s first hole, not its
    /// size, is where a resume without a map starts (`PartFile.contiguousSize`).
    private func markInPieces() {
        let empty = [Segment(start: 0, end: setup.total)]
        setup.engine.journal.append(
            .init(id: setup.job.id, fileName: setup.name, totalBytes: setup.total, finished: false, segments: empty))
        savedReceived = 0
        let (engine, id, generation, name) = (setup.engine, setup.job.id, setup.job.generation, setup.name)
        Task { await engine.transferSegmentsSaved(id, generation, name: name, empty) }
    }

    /// Syncs the `.part`, then saves the map of what that made durable.
    private func saveMap() async {
        saving = true
        defer { saving = false }
        let segments = plan.segments.compacted()
        let received = plan.received
        let entry = StateJournal.Entry(
            id: setup.job.id, fileName: setup.name, totalBytes: setup.total, finished: false, segments: segments)
        let (writer, journal) = (setup.writer, setup.engine.journal)
        do {
            try await FileWorkers.run {
                try writer.syncData()
                journal.appendDurably(entry)
            }
        } catch {
            return
        }
        savedReceived = received
        lastSave = Monotonic.seconds()
        await setup.engine.transferSegmentsSaved(setup.job.id, setup.job.generation, name: setup.name, segments)
    }

    /// After every connection stopped: saves the last map, then returns it when the file is
    /// whole, or throws what ended the run.
    private func conclude(saved: @Sendable ([Segment]) -> Void) async throws -> [Segment] {
        // In a task of its own: the run's task may be cancelled (a pause), and the file workers
        // refuse work for a cancelled task, but this map is the one to resume from.
        if plan.pieces.count > 1 || savedReceived >= 0 { await Task { await self.saveMap() }.value }
        if plan.pieces.count > 1 || savedReceived >= 0 { saved(plan.segments.compacted()) }
        if plan.isComplete { return plan.segments.compacted() }
        if let ending { throw ending }
        try Task.checkCancellation()
        throw TransferFailure(.closedEarly(received: plan.received, expected: setup.total))
    }
}

/// The last map a run saved, for the transfer's next attempt.
final class SavedMap: Sendable {
    private let value = Mutex<[Segment]?>(nil)

    var map: [Segment]? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// A connection's speed over the last few seconds.
struct RateWindow: Sendable {
    /// When the connection started writing.
    let since: Double
    private var samples: [(at: Double, position: Int64)]
    static let span = 3.0

    init(at now: Double, position: Int64) {
        since = now
        samples = [(now, position)]
    }

    mutating func record(at now: Double, position: Int64) {
        samples.append((now, position))
        while samples.count > 2, now - samples[1].at >= Self.span { samples.removeFirst() }
    }

    /// The speed between the last two looks; 0 before there are two.
    var latestRate: Double {
        guard samples.count >= 2 else { return 0 }
        let (a, b) = (samples[samples.count - 2], samples[samples.count - 1])
        return b.at > a.at ? Double(b.position - a.position) / (b.at - a.at) : 0
    }

    /// The span of ``rate(now:over:)`` for choosing whose piece to take over.
    static let recent = 0.5

    /// Bytes per second over the window; 0 until some time has passed.
    func rate(now: Double) -> Double { rate(now: now, over: Self.span) }

    /// Bytes per second over the last `span` seconds; 0 (unknown) while the connection has
    /// been measured for less than a fifth of a second, and 1 for one that has received nothing
    /// over the span (it is stalled, which is known).
    func rate(now: Double, over span: Double) -> Double {
        guard let last = samples.last, let oldest = samples.first, last.at - oldest.at >= 0.2 else { return 0 }
        let first = samples.first { last.at - $0.at <= span } ?? oldest
        guard last.at - first.at >= 0.1 else { return 0 }
        let bytes = last.position - first.position
        return bytes > 0 ? Double(bytes) / (last.at - first.at) : 1
    }
}
