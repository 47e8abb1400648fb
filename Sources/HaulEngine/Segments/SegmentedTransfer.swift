import HaulCore
import HaulHTTP
import HaulStore
import Synchronization

/// Fetches the rest of one file over several connections, each writing its own piece of the one
/// `.part` (see ``SegmentPlan``), until the file is whole or the transfer stops.
///
/// It carries out what its ``ConnectionController`` decides: the connections (each a task that
/// asks for its bytes, checks the answer with ``RangeResponseCheck`` before a byte of it is
/// written, and writes it), the looks at the clock that add, stop and replace connections, and
/// the ``MapSaver`` that makes the map of what is on disk durable as the data behind it is synced.
actor SegmentedTransfer {
    /// What a segmented run needs besides its job (whose connection limit, throttle and sources it
    /// uses); the job's target carries the first response's validators.
    struct Setup: Sendable {
        let reports: any HTTPTransferReports
        let resources: TransferResources
        let transport: ClientTransport
        let policy: TransferPolicy
        let configuration: EngineConfiguration
        let job: TransferJob
        let name: String
        let writer: PartFile.Writer
        let total: Int64
        /// Where the first response came from: further connections go straight there.
        let sourceURL: String
        var tuning = SegmentTuning()
        /// Set when the first source served bytes that failed a hash: no connection goes to it.
        var primaryBanned: SourceProblem?
    }

    /// Why a run ended without the whole file, other than a failure to retry.
    enum Stop: Error {
        /// The file changed on the server, or its ranges no longer work: start over.
        case startOver(StartOverReason)
    }

    private let setup: Setup
    private var controller: ConnectionController
    /// The responses being written, by connection.
    private var responses: [Int: ClientResponse] = [:]
    /// Connections with nothing to do, waiting for the next change that may give them work.
    private var idle: [CheckedContinuation<Void, Never>] = []
    private let spawner: AsyncStream<Int>.Continuation
    /// The download's sources: the first response's URL, then its mirrors.
    private var board: SourceBoard
    /// Each source's server (host and port), by index in ``board``.
    private let servers: [String]
    /// The requests for each source: a mirror's carry none of the user's credentials.
    private let targets: [TransferTarget]
    /// The source each connection fetches from.
    private var sourceOf: [Int: Int] = [:]
    /// Which bytes each source wrote in this run, for blaming a piece that fails its hash.
    private(set) var writtenBy: [(range: Range<Int64>, source: Int)] = []
    /// Where each response being written began, for the bytes it has written so far.
    private var writeStarts: [Int: Int64] = [:]
    /// When the sources were last reported while the run goes on.
    private var sourcesReportedAt: Duration = .zero
    private let saver: MapSaver
    /// The first response, its connection and where it began: what a further request's bytes
    /// are compared with when the server gives no strong validator (``OverlapCheck``).
    private var firstBody: (response: ClientResponse, worker: Int, start: Int64)?

    private init(_ setup: Setup, plan: SegmentPlan, spawner: AsyncStream<Int>.Continuation) {
        self.setup = setup
        self.spawner = spawner
        var tuning = setup.tuning
        tuning.lookEvery = min(max(setup.configuration.progressInterval, .milliseconds(100)), .milliseconds(500))
        controller = ConnectionController(
            plan: plan, total: setup.total, tuning: tuning, oneConnection: setup.job.oneConnection,
            resumed: setup.job.segments != nil, now: setup.resources.clock.now)
        board = SourceBoard(primary: setup.sourceURL, mirrors: setup.job.mirrors)
        if let problem = setup.primaryBanned { board.drop(0, problem, banned: true) }
        servers = board.entries.map { entry in
            URLParts(entry.source.url).map { "\($0.host.lowercased()):\($0.port ?? 0)" } ?? entry.source.url
        }
        targets = [setup.job.target] + setup.job.mirrors.map { MirrorRequests.target(for: $0, of: setup.job.target) }
        saver = MapSaver(
            journal: setup.resources.journal, writer: setup.writer, id: setup.job.id, name: setup.name,
            total: setup.total)
    }

    /// Runs until the file is whole (returns its map) or the transfer stops: throws the failure
    /// that ended it, ``Stop``, or `CancellationError`. `first` is a response already open for
    /// the range it covers; without one the first connection asks for a piece itself. `saved`
    /// hears of each map made durable.
    static func run(
        _ setup: Setup, plan: SegmentPlan, first: (ClientResponse, Range<Int64>)?,
        saved: @escaping @Sendable ([Segment]) -> Void = { _ in }
    ) async throws -> [Segment] {
        try await runReturningSources(setup, plan: plan, first: first, saved: saved).map
    }

    /// What a run ended with: the map, and which source wrote which bytes.
    struct Result: Sendable {
        var map: [Segment]
        var writtenBy: [(range: Range<Int64>, source: Int)]
    }

    /// ``run(_:plan:first:saved:)``, also telling what each source did: `mirrorsSeen` hears the
    /// mirrors as the run left them, however it ends.
    static func runReturningSources(
        _ setup: Setup, plan: SegmentPlan, first: (ClientResponse, Range<Int64>)?,
        saved: @escaping @Sendable ([Segment]) -> Void = { _ in },
        mirrorsSeen: @escaping @Sendable ([DownloadSource]) -> Void = { _ in }
    ) async throws -> Result {
        let (spawns, spawner) = AsyncStream.makeStream(of: Int.self)
        let transfer = SegmentedTransfer(setup, plan: plan, spawner: spawner)
        let firstWorker = await transfer.enlistFirst(opened: first != nil)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await transfer.watch() }
            group.addTask { await transfer.work(firstWorker, first: first) }
            for await worker in spawns {
                group.addTask { await transfer.work(worker, first: nil) }
            }
            group.cancelAll()
        }
        mirrorsSeen(await transfer.board.mirrors)
        let map = try await transfer.conclude(saved: saved)
        return Result(map: map, writtenBy: await transfer.writtenBy)
    }

    private var clock: any MonotonicClock { setup.resources.clock }

    // MARK: Connections

    /// The first connection: to the source whose response is `opened`, else to the best one.
    private func enlistFirst(opened: Bool) -> Int {
        let source = opened ? 0 : board.pick { _ in true } ?? 0
        setup.resources.servers.openFirst(servers[source], holder)
        return enlist(to: source)
    }

    /// A further connection to the source that should get it, if any source's server has room.
    private func enlistMore() -> Int? {
        let room = setup.resources.servers
        guard let source = board.pick(hasRoom: { room.hasRoom(servers[$0]) }) ?? board.pick(hasRoom: { _ in true }),
            room.openMore(servers[source], holder, now: clock.now)
        else { return nil }
        return enlist(to: source)
    }

    /// A new connection, to `source` (whose server has counted it).
    private func enlist(to source: Int) -> Int {
        let worker = controller.enlist()
        sourceOf[worker] = source
        board.connected(source)
        return worker
    }

    private func source(of worker: Int) -> Int { sourceOf[worker] ?? 0 }

    /// This download, as the servers' connection counts know it.
    private var holder: ServerConnections.Holder { .init(id: setup.job.id, order: setup.job.queueOrder) }

    /// Gives a connection back to each server where a download earlier in the queue waits for
    /// one: the newest connection to it stops where it is.
    private func giveWay() {
        let now = clock.now
        for (index, server) in servers.enumerated()
        where setup.resources.servers.shouldGiveWay(server, holder, now: now) {
            guard let newest = sourceOf.filter({ $0.value == index }).keys.max(), controller.retire(newest) else {
                continue
            }
            _ = responses[newest]?.stopWriting(at: 0)
        }
    }

    /// One connection: fetches pieces until none is left for it, it is turned away or retired,
    /// or the run ends.
    private func work(_ worker: Int, first: (ClientResponse, Range<Int64>)?) async {
        var pending = first
        var failures = 0
        while !Task.isCancelled, controller.goesOn(worker), board[source(of: worker)].source.isUsable {
            let response: ClientResponse
            let range: Range<Int64>
            if let (opened, openedRange) = pending {
                pending = nil
                (response, range) = (opened, openedRange)
                firstBody = (opened, worker, openedRange.lowerBound)
                controller.claimFirst(worker)
            } else {
                switch assign(worker) {
                case .fetch(let assigned):
                    range = assigned
                case .wait:
                    await waitForChange()
                    continue
                case .leave, .split:
                    return leave(worker)
                }
                do {
                    switch try await sameContent(worker) {
                    case true?: break
                    case false?: return leave(worker)
                    case nil:
                        controller.release(worker)
                        await waitForChange()
                        continue
                    }
                    let source = source(of: worker)
                    response = try await setup.policy.send(
                        targets[source], range: range, from: board[source].source.url, over: setup.transport)
                } catch {
                    controller.release(worker)
                    if Task.isCancelled { break }
                    failures += 1
                    if await !shouldGoOn(worker, after: error, failures: failures) { break }
                    continue
                }
                guard await accept(response, for: worker, asked: range) else { break }
            }
            let before = controller.plan.piece(of: worker)?.next ?? range.lowerBound
            do {
                try await write(response, for: worker, range: range)
                if (controller.plan.piece(of: worker)?.next ?? range.upperBound) > before { failures = 0 }
            } catch {
                if Task.isCancelled || error is CancellationError { break }
                if (controller.plan.piece(of: worker)?.next ?? before) > before { failures = 0 }
                controller.release(worker)
                failures += 1
                if await !shouldGoOn(worker, after: error, failures: failures) { break }
            }
        }
        leave(worker)
    }

    /// The next bytes for `worker`; a cut piece stops writing where the cut is, or where it got to.
    private func assign(_ worker: Int) -> ConnectionController.Assignment {
        let assignment = controller.assignment(for: worker, now: clock.now)
        guard case .split(let victim, let at) = assignment else { return assignment }
        // A response being written stops at the cut (or where it got to); one still on its way
        // is stopped there when it arrives (`write`).
        let stopped = responses[victim]?.stopWriting(at: at) ?? at
        return controller.split(victim, at: stopped, for: worker, now: clock.now)
    }

    /// Checks a range response; false (and the response dropped) when it is not written.
    private func accept(_ response: ClientResponse, for worker: Int, asked: Range<Int64>) async -> Bool {
        let target = setup.job.target
        let source = source(of: worker)
        // A mirror's ETag says nothing of the first server's; its date and size do.
        let verdict = RangeResponseCheck.check(
            response.head, asked: asked, total: setup.total, etag: source == 0 ? target.etag : nil,
            lastModified: target.lastModified)
        if board.count > 1, verdict != .accepted {
            response.drop()
            controller.release(worker)
            if let notice = judgeSource(source, verdict, head: response.head) { await setup.reports.notice(notice) }
            return false
        }
        let (write, notice) = controller.accept(verdict, for: worker)
        guard !write else { return true }
        response.drop()
        stopAllIfEnding()
        if let notice { await setup.reports.notice(notice) }
        return false
    }

    /// A source's answer was not written: a mirror that serves another file is dropped, one that
    /// turns a connection away keeps the ones it has (or, with none, is dropped). The run goes on
    /// while a source is usable; the first source's changed file still starts it over.
    private func judgeSource(_ source: Int, _ verdict: RangeVerdict, head: ResponseHead) -> Notice? {
        switch verdict {
        case .accepted:
            return nil
        case .fileChanged:
            if source == 0 {
                _ = controller.accept(.fileChanged, for: -1)
                stopAllIfEnding()
                return nil
            }
            let size = head["content-range"].flatMap(ContentRange.init)?.complete ?? head.contentLength
            return drop(
                source,
                size.map { $0 != setup.total } == true
                    ? .sizeDiffers(size: size ?? 0, expected: setup.total) : .dateDiffers)
        case .wrongRange(let reason):
            return drop(source, .failed(reason))
        case .refused(let failure):
            if board.turnedAway(source) { return nil }
            if failure.isTransient && source == 0 { return nil }
            return drop(source, .failed(failure.reason))
        }
    }

    /// No more connections go to `source`; its connections stop where they are. Ends the run
    /// when no source is left.
    private func drop(_ source: Int, _ problem: SourceProblem, banned: Bool = false) -> Notice {
        board.drop(source, problem, banned: banned)
        for (worker, of) in sourceOf where of == source { _ = responses[worker]?.stopWriting(at: 0) }
        if board.usableCount == 0 {
            controller.end(TransferFailure(.other("every source of the file failed; the last: " + problem.text)))
            stopAllIfEnding()
        }
        return MirrorRequests.droppedNotice(board[source].source, problem)
    }

    /// Whether the server still sends the version on disk, asked before each request but the
    /// first when it gives no strong validator (``OverlapCheck``). Nil: too little is written to
    /// compare yet. False: the run ends to start over on one connection (other bytes came), or
    /// this connection was turned away; either way nothing of it is written.
    private func sameContent(_ worker: Int) async throws -> Bool? {
        let source = source(of: worker)
        // A mirror proves its content this way too: its validators are its own server's.
        guard source != 0 || OverlapCheck.isNeeded(etag: setup.job.target.etag) else { return true }
        // The first response's bytes, else any written piece (a resumed map's, or those of
        // connections already checked); none yet: wait while the first response writes.
        let first = firstBody.flatMap { OverlapCheck.region(start: $0.start, written: $0.response.position - $0.start) }
        guard let region = first ?? OverlapCheck.region(in: controller.plan) else {
            return firstBody.map { responses[$0.worker] != nil } == true ? nil : true
        }
        let response = try await setup.policy.send(
            targets[source], range: region, from: board[source].source.url, over: setup.transport)
        guard await accept(response, for: worker, asked: region) else { return false }
        let body = CollectedBody()
        try await response.writeWhole(to: body, at: region.lowerBound, total: region.upperBound)
        guard body.collected == OverlapCheck.read(region, at: setup.writer.path) else {
            if source != 0 {
                await setup.reports.notice(drop(source, .otherContent))
                return false
            }
            _ = controller.accept(.fileChanged, for: worker)
            stopAllIfEnding()
            return false
        }
        return true
    }

    /// Writes `response` into `worker`'s piece until the piece is done or cut short.
    private func write(_ response: ClientResponse, for worker: Int, range: Range<Int64>) async throws {
        responses[worker] = response
        writeStarts[worker] = range.lowerBound
        if let end = controller.beginWriting(worker, range, now: clock.now) { _ = response.stopWriting(at: end) }
        defer {
            controller.endWriting(worker, now: clock.now)
            responses[worker] = nil
            writeStarts[worker] = nil
            wakeIdle()
        }
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
            controller.advance(worker, to: response.position)
            served(worker, range.lowerBound..<response.position)
            throw error
        }
        controller.advance(worker, to: position)
        served(worker, range.lowerBound..<position)
        if response.wasCut { response.cancel() }
        if let piece = controller.plan.piece(of: worker), piece.remaining > 0, !response.wasCut {
            throw TransferFailure(.closedEarly(received: position - range.lowerBound, expected: Int64(range.count)))
        }
    }

    /// `worker`'s source wrote `range`.
    private func served(_ worker: Int, _ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        let source = source(of: worker)
        board.served(source, bytes: Int64(range.count))
        writtenBy.append((range, source))
    }

    /// After a connection's failure: whether it tries again (after a pause), or stops.
    private func shouldGoOn(_ worker: Int, after error: any Error, failures: Int) async -> Bool {
        let failure = TransferFailure.classify(error, stallTimeout: setup.configuration.stallTimeout)
        // A source that fails for good, or too often, is dropped while another is usable: one bad
        // mirror (a refused connection, a bad certificate) never fails the download.
        let source = source(of: worker)
        if board.usableCount > 1, !failure.isDiskFull,
            !failure.isTransient || failures >= setup.tuning.failuresPerConnection
        {
            await setup.reports.notice(drop(source, .failed(failure.reason)))
            return false
        }
        guard let pause = controller.failed(worker, failure, failures: failures) else {
            stopAllIfEnding()
            return false
        }
        try? await clock.sleep(for: pause)
        return !Task.isCancelled
    }

    /// Waits until a piece ends, the connections are looked at again or the run ends.
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
        guard let source = sourceOf.removeValue(forKey: worker) else { return }
        setup.resources.servers.close(servers[source], holder)
        board.disconnected(source)
        let none = controller.leave(worker)
        wakeIdle()
        // Once the file is whole, a connection still waiting for an answer is not waited for:
        // the run ends, which cancels its request.
        if none || (controller.plan.isComplete && controller.writingCount == 0) { spawner.finish() }
    }

    /// Once the run is ending, every response stops.
    private func stopAllIfEnding() {
        guard controller.isEnding else { return }
        for response in responses.values { response.cancel() }
        wakeIdle()
    }

    // MARK: Looking

    /// Looks at the connections now and then while the run lasts: reports progress, adds, stops
    /// and replaces connections, saves the map.
    private func watch() async {
        while !Task.isCancelled, controller.liveCount > 0 {
            try? await clock.sleep(for: controller.nextLook)
            let look = controller.look(
                now: clock.now, positions: responses.mapValues(\.position), limit: setup.job.connections.current,
                speedLimit: setup.job.throttle.rate,
                held: setup.job.throttle.isHolding(share: setup.tuning.underLimit))
            await setup.reports.progress(look.progress)
            for worker in look.stop { _ = responses[worker]?.stopWriting(at: 0) }
            wakeIdle()
            if look.markInPieces {
                // Before a byte is written out of order, the state must know the file is in
                // pieces: a crash then resumes from the map, not from the `.part`'s size.
                let empty = saver.markInPieces()
                await setup.reports.segmentsSaved(empty, name: setup.name)
            }
            if board.count > 1 {
                measureSources()
                if clock.now - sourcesReportedAt >= .seconds(1) {
                    sourcesReportedAt = clock.now
                    await setup.reports.sourcesChanged(liveMirrors(), checksum: nil, pieceHashes: nil)
                }
            }
            giveWay()
            var opened = 0
            for _ in 0..<(look.add + look.replace) {
                guard let worker = enlistMore() else { break }
                opened += 1
                spawner.yield(worker)
            }
            controller.roomFor(opened, of: look.add + look.replace)
            if let map = look.save { await save(map) }
        }
    }

    /// The mirrors with the bytes their responses have written so far.
    private func liveMirrors() -> [DownloadSource] {
        var mirrors = board.mirrors
        for (worker, start) in writeStarts {
            let source = source(of: worker)
            guard source > 0, let position = responses[worker]?.position, position > start else { continue }
            mirrors[source - 1].bytes += position - start
        }
        return mirrors
    }

    /// Each source's speed now, the sum of its connections'.
    private func measureSources() {
        var rates: [Int: Double] = [:]
        for (worker, rate) in controller.rates(now: clock.now) { rates[source(of: worker), default: 0] += rate }
        board.measured(rates)
    }

    /// Syncs the `.part`, then saves `map`, what that made durable.
    private func save(_ map: [Segment]) async {
        let received = map.received
        let durable = await saver.save(map)
        controller.mapSaved(received: durable ? received : nil, now: clock.now)
        if durable { await setup.reports.segmentsSaved(map, name: setup.name) }
    }

    /// After every connection stopped: saves the last map, then returns it when the file is
    /// whole, or throws what ended the run.
    private func conclude(saved: @Sendable ([Segment]) -> Void) async throws -> [Segment] {
        if controller.keepsMap {
            let map = controller.plan.segments.compacted()
            // In a task of its own: the run's task may be cancelled (a pause), and the file
            // workers refuse work for a cancelled task, but this map is the one to resume from.
            await Task { await self.save(map) }.value
            saved(map)
        }
        switch controller.outcome {
        case .success(let map)?: return map
        case .failure(let reason)?: throw reason
        case nil:
            try Task.checkCancellation()
            throw TransferFailure(.closedEarly(received: controller.plan.received, expected: setup.total))
        }
    }
}

/// Makes a segmented download's map durable: the `.part` synced, then the map journaled with
/// `fdatasync` too, so a map never claims a byte that is not on disk.
struct MapSaver: Sendable {
    let journal: StateJournal
    let writer: PartFile.Writer
    let id: DownloadID
    let name: String
    let total: Int64

    /// Journals a map that claims nothing yet, at once (a `kill -9` cannot lose it, and waiting
    /// for the disk would hold back the new connections): the file is in pieces. It claims no
    /// byte, so it needs no sync; should a power loss take it, the `.part`'s first hole, not its
    /// size, is where a resume without a map starts (`PartFile.contiguousSize`).
    func markInPieces() -> [Segment] {
        let empty = [Segment(start: 0, end: total)]
        journal.append(.init(id: id, fileName: name, totalBytes: total, finished: false, segments: empty))
        return empty
    }

    /// Syncs the `.part` and journals `map` durably; false when either failed.
    func save(_ map: [Segment]) async -> Bool {
        let entry = StateJournal.Entry(id: id, fileName: name, totalBytes: total, finished: false, segments: map)
        let (writer, journal) = (writer, journal)
        do {
            try await FileWorkers.run {
                try writer.syncData()
                journal.appendDurably(entry)
            }
            return true
        } catch {
            return false
        }
    }
}

/// The last value a run reported (a saved map, its mirrors), for the transfer's next attempt.
final class LastReported<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    var value: Value? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
