/// When a segmented download adds, keeps or replaces connections. Pure: the engine measures,
/// this decides, and the tests check each rule without a socket.
public struct SegmentTuning: Sendable, Equatable {
    /// The smallest piece a split leaves (so a file under twice this stays on one connection).
    public var minimumPiece: Int64 = 1 << 20
    /// How long the first connection runs before its speed is judged.
    public var firstLook: Double = 0.05
    /// A download expected to end sooner than this at its present speed gets no more
    /// connections: a new connection's round trip and slow start would not pay off.
    public var worthwhileSeconds: Double = 1
    /// A connection this many times slower than the others' median is slow...
    public var slowFactor: Double = 4
    /// ...once it has been measured for this long.
    public var slowAfter: Double = 1
    /// What a new request is assumed to cost, in seconds, when judging a take-over.
    public var requestSetup: Double = 0.3
    /// How long after the first connections were added they are judged...
    public var judgeAfter: Double = 0.5
    /// ...and how much faster they must have made the download to stay.
    public var gainNeeded: Double = 1.25
    /// A first connection at least this fast (bytes per second) is on a link where one more
    /// connection is tried before the rest.
    public var fastLink: Double = 16 * 1_048_576

    public init() {}

    /// Whether a download should get more connections: it has been running at least
    /// ``firstLook``, and at `rate` bytes per second its `remaining` bytes would take at least
    /// ``worthwhileSeconds`` (a rate not known yet counts as slow).
    public func wantsMoreConnections(remaining: Int64, rate: Double, running: Double) -> Bool {
        guard remaining >= 2 * minimumPiece, running >= firstLook else { return false }
        guard rate > 0 else { return true }
        return Double(remaining) / rate >= worthwhileSeconds
    }

    /// Whether added connections pay: the download goes at least ``gainNeeded`` times as fast as
    /// it went on one (a speed not measured before counts as slow).
    public func connectionsPay(before: Double, after: Double) -> Bool {
        before <= 0 || after >= gainNeeded * before
    }

    /// The connections to replace: each measured for ``slowAfter`` and more than ``slowFactor``
    /// times slower than the median of the others, when at least two others are measured.
    public func slowConnections(rates: [Int: Double], measuredFor: [Int: Double]) -> [Int] {
        let measured = rates.filter { (measuredFor[$0.key] ?? 0) >= slowAfter }
        guard measured.count >= 3 else { return [] }
        return measured.keys.sorted().filter { worker in
            let others = measured.filter { $0.key != worker }.values.sorted()
            let median = others[others.count / 2]
            return measured[worker]! * slowFactor < median
        }
    }
}
