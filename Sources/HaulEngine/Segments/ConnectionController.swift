import HaulCore
import HaulHTTP
import HaulStore

/// The decisions of a download fetched over several connections, as a state machine: events in
/// (a connection wants work, a response arrived, a connection wrote, failed or left, a look at
/// the clock), decisions out (the bytes to ask for, connections to add, stop or replace, a map to
/// save, progress to report). No I/O and no clock of its own, so every rule is tested without a
/// socket; ``SegmentedTransfer`` carries the decisions out.
struct ConnectionController {
    /// Whether the run goes on, or is ending for `reason` (every connection stops).
    enum Phase {
        case running
        case ending(any Error)
    }

    /// What a connection does next.
    enum Assignment: Equatable {
        /// Ask for these bytes.
        case fetch(Range<Int64>)
        /// Cut `victim`'s piece at `at` (its response stops writing there, or where it has got
        /// to), then call ``split(_:at:for:)``.
        case split(victim: Int, at: Int64)
        /// Nothing worth taking now; while others write, a slow one's tail may be later.
        case wait
        /// Nothing left for it: it leaves.
        case leave
    }

    /// What one look at the connections decided.
    struct Look: Equatable {
        var progress: TransferProgress
        /// Connections to stop where they are (their piece goes to the others).
        var stop: [Int] = []
        /// Connections to add, each if the server has room.
        var add = 0
        /// Replacing a slow connection: one more for each, if the server has room.
        var replace = 0
        /// Before the first extra connection writes: the state must know the file is in pieces.
        var markInPieces = false
        /// A map to make durable now.
        var save: [Segment]?
    }

    /// One connection of the run.
    private struct Connection {
        /// Its speed while it writes a response.
        var writing: RateWindow?
        /// Told to stop: it leaves once its response ends.
        var retiring = false
        /// When it asked for the bytes it has not begun to write yet.
        var askedAt: Duration?
    }

    /// Whether connections may still be added.
    private enum Growth: Equatable {
        case open
        /// Connections were added at `at`, when the download went at `baseline` on `before`.
        case judging(baseline: Double, at: Duration, before: Int)
        /// Added connections did not make it faster: it keeps what it has.
        case closed
    }

    /// The map of what is on disk, as far as the state file knows it.
    private struct SavedMap {
        /// Bytes the last durable map holds; nil while the file is in one piece as far as the
        /// state knows.
        var received: Int64?
        var at: Duration
        var saving = false
    }

    private(set) var plan: SegmentPlan
    private(set) var phase = Phase.running
    /// Lowered when the server turns a connection away or added ones do not pay.
    private(set) var cap: Int
    private var connections: [Int: Connection] = [:]
    private var nextID = 0
    private var replacements = 0
    /// Each connection's speed over its last piece: what it would fetch another at.
    private var lastRates: [Int: Double] = [:]
    private var growth = Growth.open
    /// How long requests of this run took to answer, once one was measured.
    private var answerDelay: Duration?

    /// What a new request is taken to cost when deciding whether to cut a piece: twice what they
    /// took here (a loopback answers in a millisecond, a far server in hundreds), at most the
    /// tuning's figure.
    var requestSetup: Duration {
        guard let answerDelay else { return tuning.requestSetup }
        return min(tuning.requestSetup, answerDelay * 2)
    }
    private var saved: SavedMap
    private var looks = 0
    private let startedAt: Duration
    let tuning: SegmentTuning
    let total: Int64

    /// `resumed`: the run goes on from a map the state file already has.
    init(plan: SegmentPlan, total: Int64, tuning: SegmentTuning, oneConnection: Bool, resumed: Bool, now: Duration) {
        self.plan = plan
        self.total = total
        self.tuning = tuning
        cap = oneConnection ? 1 : StateDocument.Settings.connectionRange.upperBound
        startedAt = now
        saved = SavedMap(received: resumed ? plan.received : nil, at: now)
    }

    // MARK: Connections

    var isEnding: Bool {
        if case .ending = phase { return true }
        return false
    }

    var liveCount: Int { connections.count }
    var writingCount: Int { connections.values.count { $0.writing != nil } }

    /// A number for a new connection, counted as live.
    mutating func enlist() -> Int {
        defer { nextID += 1 }
        connections[nextID] = Connection()
        return nextID
    }

    /// Whether `worker` should go on asking for work.
    func goesOn(_ worker: Int) -> Bool { !isEnding && connections[worker]?.retiring == false }

    /// The first connection, whose response is already open, owns the first piece.
    mutating func claimFirst(_ worker: Int) {
        if plan.piece(of: worker) == nil, let first = plan.pieces.first { _ = plan.claim(worker, pieceAt: first.start) }
    }

    /// The next bytes for `worker`: a piece nobody has, part of one in flight, or nothing.
    mutating func assignment(for worker: Int, now: Duration) -> Assignment {
        // Recent speeds: a connection that went quiet after a first burst is slow now.
        var measured = lastRates
        for (other, connection) in connections {
            if let window = connection.writing { measured[other] = window.rate(now: now, over: RateWindow.recent) }
        }
        // A request unanswered for ten times what one usually takes holds its piece no longer.
        let stuck = Set(
            connections.filter {
                $0.value.writing == nil && $0.value.askedAt.map { now - $0 > tuning.requestSetup * 10 } == true
            }
            .keys)
        switch plan.nextAssignment(for: worker, rates: measured, setup: requestSetup, stuck: stuck) {
        case .unowned(let start)?:
            if let range = plan.claim(worker, pieceAt: start) {
                connections[worker]?.askedAt = now
                return .fetch(range)
            }
        case .split(let victim, let at)?:
            return .split(victim: victim, at: at)
        case nil:
            break
        }
        return noWork()
    }

    /// `victim`'s piece was cut at `stopped` (where its response really stops): `worker` takes the rest.
    mutating func split(_ victim: Int, at stopped: Int64, for worker: Int, now: Duration) -> Assignment {
        guard let range = plan.split(victim, at: stopped, for: worker) else { return noWork() }
        connections[worker]?.askedAt = now
        return .fetch(range)
    }

    /// Nothing to take now: wait while another connection writes or waits for its answer (its
    /// piece may be cut, or taken whole once it is stuck), else leave.
    private func noWork() -> Assignment {
        if plan.isComplete { return .leave }
        let busy = connections.values.contains { $0.writing != nil || $0.askedAt != nil }
        return busy ? .wait : .leave
    }

    /// Stops `worker` where it is, to give its connection to another download (it leaves once
    /// its response ends); false when it is already leaving.
    mutating func retire(_ worker: Int) -> Bool {
        guard connections[worker]?.retiring == false else { return false }
        connections[worker]?.retiring = true
        return true
    }

    /// The recent speed of each connection writing now.
    func rates(now: Duration) -> [Int: Double] {
        connections.compactMapValues { $0.writing?.rate(now: now, over: RateWindow.recent) }
    }

    /// `worker` gives up its piece (a request failed, a response was refused, it leaves).
    mutating func release(_ worker: Int) { plan.release(worker) }

    /// Judges a range response `worker` got; false when it is not to be written (the connection
    /// then leaves). A connection turned away leaves the download with fewer, and `notice` says
    /// so; when it was the only one the run ends.
    mutating func accept(_ verdict: RangeVerdict, for worker: Int) -> (write: Bool, notice: Notice?) {
        guard verdict != .accepted else { return (true, nil) }
        plan.release(worker)
        switch verdict {
        case .accepted:
            return (true, nil)
        case .fileChanged:
            end(SegmentedTransfer.Stop.startOver(.remoteChanged))
            return (false, nil)
        case .wrongRange(let reason):
            return (false, turnedAway(worker, TransferFailure(reason)))
        case .refused(let failure):
            return (false, turnedAway(worker, failure))
        }
    }

    private mutating func turnedAway(_ worker: Int, _ failure: TransferFailure) -> Notice? {
        let others = connections.count - 1
        guard others > 0 else {
            // Ranges this server cannot be trusted with: the file is fetched whole, on one connection.
            switch failure.reason {
            case .rangesRefused: end(SegmentedTransfer.Stop.startOver(.rangesIgnored))
            case .wrongRange: end(SegmentedTransfer.Stop.startOver(.rangeMismatch))
            default: end(failure)
            }
            return nil
        }
        guard others < cap else { return nil }
        cap = others
        return .fewerConnections(others, because: failure.reason)
    }

    /// `worker` starts writing `range` at `now`; returns where its response must stop when its
    /// piece was cut meanwhile.
    mutating func beginWriting(_ worker: Int, _ range: Range<Int64>, now: Duration) -> Int64? {
        if let asked = connections[worker]?.askedAt {
            // What a request costs here, from asking to the first byte: the mean of the last few.
            let took = now - asked
            answerDelay = answerDelay.map { ($0 * 3 + took) / 4 } ?? took
        }
        connections[worker]?.writing = RateWindow(at: now, position: range.lowerBound)
        connections[worker]?.askedAt = nil
        guard let end = plan.piece(of: worker)?.end, end < range.upperBound else { return nil }
        return end
    }

    /// `worker`'s response has written up to `position`.
    mutating func advance(_ worker: Int, to position: Int64) { plan.advance(worker, to: position) }

    /// `worker`'s response ended (whole, cut or failed) at `now`: its speed is what it would
    /// fetch its next piece at.
    mutating func endWriting(_ worker: Int, now: Duration) {
        if let rate = connections[worker]?.writing?.rate(now: now), rate > 1 { lastRates[worker] = rate }
        connections[worker]?.writing = nil
    }

    /// After `worker`'s `failures`-th failure in a row: the pause before it tries again, or nil
    /// when it stops. A failure no retry mends ends the run; so does the last connection giving up.
    mutating func failed(_ worker: Int, _ failure: TransferFailure, failures: Int) -> Duration? {
        guard failure.isTransient, !failure.isDiskFull else {
            end(failure)
            return nil
        }
        guard failures < tuning.failuresPerConnection else {
            if connections.count == 1 { end(failure) }
            return nil
        }
        return tuning.retryPause * failures
    }

    /// `worker` has stopped; returns whether no connection is left.
    mutating func leave(_ worker: Int) -> Bool {
        plan.release(worker)
        connections[worker] = nil
        return connections.isEmpty
    }

    /// Ends the run for `reason` (the first reason stays).
    mutating func end(_ reason: any Error) {
        if !isEnding { phase = .ending(reason) }
    }

    // MARK: Looking

    /// How long until the next look: two early looks within ``SegmentTuning/firstLook`` (more
    /// connections are judged by the speed between them), then one every ``SegmentTuning/lookEvery``.
    var nextLook: Duration { looks < 2 ? tuning.firstLook / 2 : tuning.lookEvery }

    /// A look at `now`, with the positions the writing connections' responses have reached: what
    /// to report, and which connections to add, stop or replace. `limit` is the download's most
    /// connections now; `speedLimit` the lowest limit its reads are held to, and `held` whether
    /// that limit made a reader wait lately.
    mutating func look(
        now: Duration, positions: [Int: Int64], limit: Int, speedLimit: Double?, held: Bool
    ) -> Look {
        looks += 1
        for (worker, position) in positions {
            plan.advance(worker, to: position)
            connections[worker]?.writing?.record(at: now, position: position)
        }
        var look = Look(progress: progress(now: now))
        guard !isEnding else { return look }
        look.stop = excessConnections(limit: limit)
        let slow = slowConnections(now: now, limit: limit)
        look.stop += slow
        look.replace = slow.count
        look.add = connectionsToAdd(now: now, limit: limit, speedLimit: speedLimit, held: held)
        if look.add > 0, saved.received == nil {
            look.markInPieces = true
            saved.received = 0
        }
        look.stop += judgeAdded(now: now, limit: limit, speedLimit: speedLimit)
        if shouldSave(now: now) {
            saved.saving = true
            look.save = plan.segments.compacted()
        }
        return look
    }

    private func progress(now: Duration) -> TransferProgress {
        var segments: [LiveSegment]?
        if plan.pieces.count > 1 {
            segments = plan.pieces.map { piece in
                LiveSegment(
                    Segment(start: piece.start, end: piece.end, received: piece.next - piece.start),
                    bytesPerSecond: piece.owner.flatMap { connections[$0]?.writing?.rate(now: now) })
            }
        }
        return TransferProgress(received: plan.received, connections: writingCount, segments: segments)
    }

    /// Above the download's limit (lowered while it runs) or the cap: the newest connections
    /// stop where they are; the others fetch what they leave.
    private mutating func excessConnections(limit: Int) -> [Int] {
        let staying = connections.filter { !$0.value.retiring }.keys.sorted()
        let excess = staying.count - max(1, min(limit, cap))
        guard excess > 0 else { return [] }
        let stopping = Array(staying.suffix(excess))
        for worker in stopping { connections[worker]?.retiring = true }
        return stopping
    }

    /// A connection much slower than the others is stopped where it is, and a fresh one takes
    /// over its piece (a server's slow path is often one connection's, not the server's).
    private mutating func slowConnections(now: Duration, limit: Int) -> [Int] {
        var rates: [Int: Double] = [:]
        var ages: [Int: Duration] = [:]
        for (worker, connection) in connections {
            guard let window = connection.writing else { continue }
            rates[worker] = window.rate(now: now)
            ages[worker] = now - window.since
        }
        var replaced: [Int] = []
        for worker in tuning.slowConnections(rates: rates, measuredFor: ages)
        where replacements < tuning.replacementsPerConnection * limit && connections[worker]?.retiring == false {
            replacements += 1
            connections[worker]?.retiring = true
            replaced.append(worker)
        }
        return replaced
    }

    /// How many connections to add now: while they are expected to pay, within the download's
    /// limit, the cap and (under a speed limit) only while the limit is not what holds it back.
    private mutating func connectionsToAdd(now: Duration, limit: Int, speedLimit: Double?, held: Bool) -> Int {
        // Until the connections added last are judged, no more.
        guard growth == .open else { return 0 }
        let windows = connections.values.compactMap(\.writing)
        let speed = windows.reduce(0) { $0 + $1.latestRate }
        let wanted = min(limit, cap) - connections.count
        // Under a limit, the pace over the last seconds: a server that sends in bursts shows
        // nothing or many times its pace between two looks, and it is what more connections
        // are judged against.
        var baseline = speed
        if let speedLimit {
            let pace = windows.reduce(0) { $0 + $1.rate(now: now) }
            if pace == 0 || pace >= tuning.underLimit * speedLimit || held { return 0 }
            baseline = pace
        }
        guard wanted > 0,
            tuning.wantsMoreConnections(remaining: total - plan.received, rate: speed, running: now - startedAt)
        else { return 0 }
        var adding = wanted
        if let speedLimit, !windows.isEmpty {
            // Under a limit, as many as the limit has room for at the pace of those there.
            // (Compared as a Double: at a stalled connection's pace the room is astronomical.)
            let perConnection = baseline / Double(windows.count)
            let room = (speedLimit / perConnection).rounded(.up) - Double(windows.count)
            if room < Double(adding) { adding = max(1, Int(room)) }
        }
        if speed >= tuning.fastLink, connections.count == 1 {
            // On a fast link the bottleneck is usually shared: one more is tried first, against
            // the speed of the one over half a second.
            guard windows.allSatisfy({ now - $0.since >= RateWindow.recent }) else { return 0 }
            baseline = windows.reduce(0) { $0 + $1.rate(now: now, over: RateWindow.recent) }
            adding = 1
        }
        growth = .judging(baseline: baseline, at: now, before: connections.count)
        // A new connection must find work: a piece nobody has, or one worth cutting.
        guard plan.nextAssignment(for: nextID, setup: tuning.requestSetup) != nil else { return 0 }
        return adding
    }

    /// Of the `wanted` connections the last look added, only `opened` found room at their servers
    /// (other downloads hold the rest): growth is judged only on what opened, and with none it
    /// stays open, so the connections are planned again at the next look, when room may be there.
    mutating func roomFor(_ opened: Int, of wanted: Int) {
        guard opened < wanted, case .judging(_, _, let before) = growth, connections.count == before else { return }
        growth = .open
    }

    /// Half a second after connections were added: unless they made the download faster (a
    /// server that caps each connection), the bottleneck is shared (the disk, the CPU, the link)
    /// and the download goes back to as many as it had, and adds no more.
    private mutating func judgeAdded(now: Duration, limit: Int, speedLimit: Double?) -> [Int] {
        guard case .judging(let baseline, let at, let before) = growth, now - at >= tuning.judgeAfter else {
            return []
        }
        growth = .open
        let total = connections.values.compactMap(\.writing).reduce(0) {
            $0 + $1.rate(now: now, over: RateWindow.recent)
        }
        guard !tuning.connectionsPay(before: baseline, after: total, limit: speedLimit) else { return [] }
        growth = .closed
        cap = before
        return excessConnections(limit: limit)
    }

    // MARK: The map

    /// A map is saved once the file has more than one piece, when a megabyte per writing
    /// connection or a second's worth has come since the last.
    private func shouldSave(now: Duration) -> Bool {
        guard !saved.saving, plan.pieces.count > 1 || saved.received != nil else { return false }
        let unsaved = plan.received - (saved.received ?? 0)
        guard unsaved > 0 else { return false }
        return unsaved >= Int64(max(1, writingCount)) * tuning.mapSaveBytesPerConnection
            || now - saved.at >= tuning.mapSaveInterval
    }

    /// Whether a map is to be saved when the run ends: the file is in pieces, or was.
    var keepsMap: Bool { plan.pieces.count > 1 || saved.received != nil }

    /// The map a look asked for (holding `received` bytes) is durable, or (nil) could not be made so.
    mutating func mapSaved(received: Int64?, now: Duration) {
        saved.saving = false
        guard let received else { return }
        saved.received = received
        saved.at = now
    }

    /// How the run ended, once every connection has left: the map when the file is whole, else
    /// what ended it (nil: the connections all left short of the end).
    var outcome: Result<[Segment], any Error>? {
        if plan.isComplete { return .success(plan.segments.compacted()) }
        if case .ending(let reason) = phase { return .failure(reason) }
        return nil
    }
}
