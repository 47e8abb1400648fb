/// When a segmented download adds, keeps or replaces connections, and how often it looks and
/// saves its map. Pure: the engine measures, this decides, and the tests check each rule
/// without a socket. Every number a segmented download goes by is here.
public struct SegmentTuning: Sendable, Equatable {
    /// The smallest piece a split leaves (so a file under twice this stays on one connection).
    public var minimumPiece: Int64 = 1 << 20
    /// How long the first connection runs before its speed is judged (in two looks).
    public var firstLook: Duration = .milliseconds(50)
    /// How often the connections are looked at after the first looks.
    public var lookEvery: Duration = .milliseconds(100)
    /// A download expected to end sooner than this at its present speed gets no more
    /// connections: a new connection's round trip and slow start would not pay off.
    public var worthwhile: Duration = .seconds(1)
    /// A connection this many times slower than the others' median is slow...
    public var slowFactor: Double = 4
    /// ...once it has been measured for this long.
    public var slowAfter: Duration = .seconds(1)
    /// At most this many replacements of slow connections per connection allowed.
    public var replacementsPerConnection = 2
    /// What a new request is assumed to cost when judging a take-over.
    public var requestSetup: Duration = .milliseconds(300)
    /// How long after the first connections were added they are judged...
    public var judgeAfter: Duration = .milliseconds(500)
    /// ...and how much faster they must have made the download to stay.
    public var gainNeeded: Double = 1.25
    /// A first connection at least this fast (bytes per second) is on a link where one more
    /// connection is tried before the rest.
    public var fastLink: Double = 16 * 1_048_576
    /// Under a speed limit, connections are added only while the download goes slower than this
    /// share of the limit (more connections cannot beat a limit that holds it back).
    public var underLimit: Double = 0.8
    /// A connection's run of failures without a byte in between, after which it stops...
    public var failuresPerConnection = 3
    /// ...and the pause after each, times the failures so far.
    public var retryPause: Duration = .milliseconds(250)
    /// A map is saved when this much per writing connection has come since the last...
    public var mapSaveBytesPerConnection: Int64 = 1 << 20
    /// ...or this long has passed.
    public var mapSaveInterval: Duration = .seconds(1)

    public init() {}

    /// Whether a download should get more connections: it has been running at least
    /// ``firstLook``, and at `rate` bytes per second its `remaining` bytes would take at least
    /// ``worthwhile`` (a rate not known yet counts as slow).
    public func wantsMoreConnections(remaining: Int64, rate: Double, running: Duration) -> Bool {
        guard remaining >= 2 * minimumPiece, running >= firstLook else { return false }
        guard rate > 0 else { return true }
        return Double(remaining) / rate >= worthwhile.seconds
    }

    /// Whether added connections pay: the download goes at least ``gainNeeded`` times as fast as
    /// it went on one (a speed not measured before counts as slow), or, under a speed limit
    /// (`limit`, bytes per second), they brought it to ``underLimit`` of the limit: no more can be
    /// had, even when the limit is less than ``gainNeeded`` times what one connection got.
    public func connectionsPay(before: Double, after: Double, limit: Double? = nil) -> Bool {
        if let limit, after >= underLimit * limit { return true }
        return before <= 0 || after >= gainNeeded * before
    }

    /// The connections to replace: each measured for ``slowAfter`` and more than ``slowFactor``
    /// times slower than the median of the others, when at least two others are measured.
    public func slowConnections(rates: [Int: Double], measuredFor: [Int: Duration]) -> [Int] {
        let measured = rates.filter { (measuredFor[$0.key] ?? .zero) >= slowAfter }
        guard measured.count >= 3 else { return [] }
        return measured.keys.sorted().filter { worker in
            let others = measured.filter { $0.key != worker }.values.sorted()
            let median = others[others.count / 2]
            return measured[worker]! * slowFactor < median
        }
    }
}

/// A connection's speed over the last few seconds.
public struct RateWindow: Sendable, Equatable {
    /// When the connection started writing.
    public let since: Duration
    private var samples: [Sample]
    /// How far back ``rate(now:)`` looks.
    public static let span = Duration.seconds(3)
    /// The span of ``rate(now:over:)`` for choosing whose piece to take over, and for judging
    /// connections just added.
    public static let recent = Duration.milliseconds(500)

    private struct Sample: Sendable, Equatable {
        var at: Duration
        var position: Int64
    }

    public init(at now: Duration, position: Int64) {
        since = now
        samples = [Sample(at: now, position: position)]
    }

    public mutating func record(at now: Duration, position: Int64) {
        samples.append(Sample(at: now, position: position))
        while samples.count > 2, now - samples[1].at >= Self.span { samples.removeFirst() }
    }

    /// The speed between the last two looks; 0 before there are two.
    public var latestRate: Double {
        guard samples.count >= 2 else { return 0 }
        let (a, b) = (samples[samples.count - 2], samples[samples.count - 1])
        return b.at > a.at ? Double(b.position - a.position) / (b.at - a.at).seconds : 0
    }

    /// Bytes per second over ``span``; 0 until some time has passed.
    public func rate(now: Duration) -> Double { rate(now: now, over: Self.span) }

    /// Bytes per second over the last `span`; 0 (unknown) while the connection has been
    /// measured for less than a fifth of a second, and 1 for one that has received nothing over
    /// the span (it is stalled, which is known).
    public func rate(now: Duration, over span: Duration) -> Double {
        guard let last = samples.last, let oldest = samples.first, last.at - oldest.at >= .milliseconds(200) else {
            return 0
        }
        let first = samples.first { last.at - $0.at <= span } ?? oldest
        guard last.at - first.at >= .milliseconds(100) else { return 0 }
        let bytes = last.position - first.position
        return bytes > 0 ? Double(bytes) / (last.at - first.at).seconds : 1
    }
}
