/// Which connection fetches which part of a file while a segmented download runs.
///
/// The file is cut into pieces that together cover it without gaps. A piece is fetched from its
/// first missing byte to its end by at most one connection, its owner. A connection with nothing
/// to do takes a piece nobody owns, else the back half of the largest piece still to come; near
/// the end it takes over the tail of a connection that would finish far later than it could.
/// Pure: the engine feeds it positions and rates, and carries out what it decides.
public struct SegmentPlan: Sendable, Equatable {
    /// A piece of the file: bytes `start..<next` are written, `next..<end` are to come.
    public struct Piece: Sendable, Equatable {
        public var start: Int64
        public var end: Int64
        public var next: Int64
        /// The connection fetching it, if any.
        public var owner: Int?

        public var remaining: Int64 { end - next }
    }

    /// What a connection with nothing to do should fetch.
    public enum Assignment: Sendable, Equatable {
        /// A piece nobody owns, starting at `start`: claim it.
        case unowned(start: Int64)
        /// Cut `victim`'s piece at `at`: the victim stops there (or later, if it is already past
        /// it), and the rest goes to the asking connection (``split(_:at:for:)``).
        case split(victim: Int, at: Int64)
    }

    public private(set) var pieces: [Piece]
    public let total: Int64
    /// The smallest piece a split leaves on either side.
    public let minimumPiece: Int64

    /// Splits land on multiples of this, so writes stay page-aligned.
    static let alignment: Int64 = 64 * 1024

    /// A plan from a stored map (``[Segment]/isMap(ofSize:)`` must hold).
    public init(total: Int64, map: [Segment], minimumPiece: Int64 = 1 << 20) {
        self.total = total
        self.minimumPiece = minimumPiece
        pieces = map.map { Piece(start: $0.start, end: $0.end, next: $0.next, owner: nil) }
    }

    /// A plan for a file of which `0..<received` is on disk.
    public init(total: Int64, received: Int64 = 0, minimumPiece: Int64 = 1 << 20) {
        self.init(
            total: total, map: [Segment(start: 0, end: total, received: min(received, total))],
            minimumPiece: minimumPiece)
    }

    /// The map as stored: each piece and how much of it is written.
    public var segments: [Segment] {
        pieces.map { Segment(start: $0.start, end: $0.end, received: $0.next - $0.start) }
    }
    public var received: Int64 { pieces.reduce(0) { $0 + ($1.next - $1.start) } }
    public var isComplete: Bool { pieces.allSatisfy { $0.remaining == 0 } }
    /// Connections that own a piece.
    public var owners: [Int] { pieces.compactMap(\.owner) }

    public func piece(of worker: Int) -> Piece? { pieces.first { $0.owner == worker } }

    /// `worker` has written its piece up to `next`.
    public mutating func advance(_ worker: Int, to next: Int64) {
        guard let i = index(of: worker) else { return }
        pieces[i].next = min(max(pieces[i].next, next), pieces[i].end)
    }

    /// `worker` stopped: the rest of its piece waits for another connection.
    public mutating func release(_ worker: Int) {
        guard let i = index(of: worker) else { return }
        pieces[i].owner = nil
    }

    /// What `thief`, a connection with nothing to do, takes next: a piece nobody owns (the one
    /// with most to come), else part of another connection's piece (the engine stops a response
    /// being written at the cut, and a response still on its way when it arrives, so connections
    /// added together share the file evenly). The victim is the piece that would finish
    /// last at its connection's rate; it is cut where both connections would finish together
    /// (at its middle while rates are unknown). Taken when the thief's part keeps
    /// ``minimumPiece``, or when the victim would take more than twice as long as the thief with
    /// `setup`, what a new request costs: so a slow connection's tail is taken over near
    /// the end. Nil when nothing is worth taking.
    ///
    /// `stuck`: connections whose request has waited long for its answer; a thief takes the whole
    /// rest of a stuck one's piece (a mirror that accepts a connection and never answers must
    /// not hold its piece until the stall timeout).
    public func nextAssignment(
        for thief: Int, rates: [Int: Double] = [:], setup: Duration = .milliseconds(300), stuck: Set<Int> = []
    ) -> Assignment? {
        if let free = pieces.filter({ $0.owner == nil && $0.remaining > 0 }).max(by: { $0.remaining < $1.remaining }) {
            return .unowned(start: free.start)
        }
        if let held = pieces.first(where: {
            $0.owner.map(stuck.contains) == true && $0.owner != thief && $0.remaining > 0
        }),
            let owner = held.owner
        {
            return .split(victim: owner, at: held.next)
        }
        let known = rates.filter { $0.value > 0 }.values.sorted()
        let median = known.isEmpty ? nil : known[known.count / 2]
        func rate(_ worker: Int) -> Double? { rates[worker].flatMap { $0 > 0 ? $0 : nil } ?? median }
        let candidates = pieces.filter { piece in
            guard let owner = piece.owner, owner != thief else { return false }
            return piece.remaining > 0
        }
        func finish(_ piece: Piece) -> Double {
            rate(piece.owner!).map { Double(piece.remaining) / $0 } ?? Double(piece.remaining)
        }
        guard let victim = candidates.max(by: { finish($0) < finish($1) }), let owner = victim.owner else { return nil }
        let cut: Int64
        var worthIt = false
        if let victimRate = rates[owner].flatMap({ $0 > 0 ? $0 : nil }), let thiefRate = rate(thief) {
            let share = victimRate / (victimRate + thiefRate)
            // From a connection four times slower the thief takes all it has not written yet: the
            // slow one's share, rounded up to whole blocks, would hold the end of the file.
            cut =
                victimRate * 4 <= thiefRate
                ? victim.next : Self.aligned(victim.next + Int64(Double(victim.remaining) * share), within: victim)
            let victimFinish = Double(victim.remaining) / victimRate
            // Both finish together, the thief after its request's setup: taken when that is
            // earlier by more than a setup (and 50 ms), however small the parts.
            let together = (Double(victim.remaining) + thiefRate * setup.seconds) / (victimRate + thiefRate)
            let saves = victimFinish - together
            worthIt =
                victimFinish > 2 * (Double(victim.remaining) / thiefRate + setup.seconds)
                || (saves >= max(setup.seconds, 0.05) && victim.end - cut >= Self.alignment)
        } else {
            cut = Self.aligned(victim.next + victim.remaining / 2, within: victim)
        }
        let thiefPart = victim.end - cut
        guard thiefPart > 0, (thiefPart >= minimumPiece && cut - victim.next >= minimumPiece) || worthIt else {
            return nil
        }
        return .split(victim: owner, at: cut)
    }

    /// `worker` takes the unowned piece starting at `start`; returns the bytes to fetch.
    public mutating func claim(_ worker: Int, pieceAt start: Int64) -> Range<Int64>? {
        release(worker)
        guard let i = pieces.firstIndex(where: { $0.start == start }), pieces[i].owner == nil, pieces[i].remaining > 0
        else { return nil }
        pieces[i].owner = worker
        return pieces[i].next..<pieces[i].end
    }

    /// Cuts `victim`'s piece at `at` (where its response was actually stopped: at or after what
    /// was asked) and gives the bytes after it to `worker`; nil when nothing is left after `at`.
    public mutating func split(_ victim: Int, at: Int64, for worker: Int) -> Range<Int64>? {
        release(worker)
        guard let i = index(of: victim) else { return nil }
        let cut = max(at, pieces[i].next)
        guard cut < pieces[i].end else { return nil }
        let rest = Piece(start: cut, end: pieces[i].end, next: cut, owner: worker)
        pieces[i].end = cut
        pieces.insert(rest, at: i + 1)
        return rest.next..<rest.end
    }

    private func index(of worker: Int) -> Int? { pieces.firstIndex { $0.owner == worker } }

    /// `offset` rounded up to ``alignment``, kept inside the piece's bytes to come.
    static func aligned(_ offset: Int64, within piece: Piece) -> Int64 {
        let up = (offset + alignment - 1) / alignment * alignment
        return up < piece.end && up >= piece.next ? up : max(offset, piece.next)
    }
}
