/// Which of a download's sources each new connection goes to, and what each source has done in
/// this run. Source 0 is the URL the first response came from; the others are its mirrors.
///
/// The rule: every usable source is tried once (a first connection to each, in priority order),
/// then connections go to the source that delivers most per connection, as measured, while its
/// server has room. A source that turns a connection away keeps the connections it has.
public struct SourceBoard: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var source: DownloadSource
        /// Live connections to it.
        public var connections = 0
        /// The most connections it takes; lowered when it turns one away.
        public var cap = Int.max
        /// A connection went to it in this run.
        public var tried = false
        /// Bytes per second over all its connections at the last look.
        public var rate: Double = 0
    }

    public private(set) var entries: [Entry]

    /// `primary` first, then the usable `mirrors` in order.
    public init(primary: String, mirrors: [DownloadSource]) {
        var first = Entry(source: DownloadSource(url: primary, origin: .user))
        first.tried = true
        entries = [first] + mirrors.map { Entry(source: $0) }
    }

    public var count: Int { entries.count }
    public subscript(index: Int) -> Entry { entries[index] }
    public var mirrors: [DownloadSource] { entries.dropFirst().map(\.source) }
    /// Sources connections may still go to.
    public var usableCount: Int { entries.count { $0.source.isUsable } }

    /// The source for a new connection, nil when none may take one. `hasRoom` says whether a
    /// source's server takes another connection (the per-server cap all downloads share).
    public func pick(hasRoom: (Int) -> Bool) -> Int? {
        let open = entries.indices.filter {
            entries[$0].source.isUsable && entries[$0].connections < entries[$0].cap && hasRoom($0)
        }
        if let untried = open.first(where: { !entries[$0].tried }) { return untried }
        // Per connection: a source that has none yet counts at the best measured so far.
        let perConnection = open.map { index -> Double in
            let entry = entries[index]
            return entry.connections > 0 ? entry.rate / Double(entry.connections) : .infinity
        }
        return zip(open, perConnection).max { $0.1 < $1.1 }?.0
    }

    public mutating func connected(_ index: Int) {
        entries[index].connections += 1
        entries[index].tried = true
    }

    public mutating func disconnected(_ index: Int) {
        entries[index].connections = max(0, entries[index].connections - 1)
    }

    /// It turned a connection away: it keeps the ones it has. Returns false when it has none, so
    /// the caller drops it.
    public mutating func turnedAway(_ index: Int) -> Bool {
        let others = entries[index].connections - 1
        entries[index].cap = max(others, 0)
        return others > 0
    }

    public mutating func served(_ index: Int, bytes: Int64) {
        entries[index].source.bytes += bytes
    }

    /// The rates of the sources at a look, by index.
    public mutating func measured(_ rates: [Int: Double]) {
        for index in entries.indices { entries[index].rate = rates[index] ?? 0 }
    }

    /// No more connections go to it; `banned` for bytes that failed a hash.
    public mutating func drop(_ index: Int, _ problem: SourceProblem, banned: Bool = false) {
        guard entries[index].source.problem == nil else { return }
        entries[index].source.problem = problem
        entries[index].source.banned = banned
    }
}
