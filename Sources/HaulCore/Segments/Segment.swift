/// A byte range of a file fetched over its own connection, and how much of it, counted from its
/// start, is on disk.
///
/// A segmented download's map is a list of them, sorted, that covers the file from byte 0 to its
/// size without gaps. What the state file stores is only ever what was made durable: the data is
/// synced before the map that claims it is written.
public struct Segment: Codable, Sendable, Equatable, Hashable {
    /// The first byte.
    public var start: Int64
    /// One past the last byte.
    public var end: Int64
    /// Bytes on disk from `start` on.
    public var received: Int64

    public init(start: Int64, end: Int64, received: Int64 = 0) {
        self.start = start
        self.end = end
        self.received = received
    }

    /// The first byte not on disk yet.
    public var next: Int64 { start + received }
    public var remaining: Int64 { end - next }
    public var isComplete: Bool { received >= end - start }
}

extension [Segment] {
    /// Bytes on disk, over the whole map.
    public var received: Int64 { reduce(0) { $0 + $1.received } }

    /// One past the last byte the map says is on disk; 0 when it says none is.
    public var furthestReceived: Int64 { reduce(0) { $1.received > 0 ? Swift.max($0, $1.next) : $0 } }

    /// Whether this is a map of a file of `total` bytes: sorted, without gaps or overlaps, each
    /// segment's count within its range. A map that is not is never used (the download starts
    /// over instead).
    public func isMap(ofSize total: Int64) -> Bool {
        guard let first, first.start == 0, last?.end == total else { return false }
        var expected: Int64 = 0
        for segment in self {
            guard segment.start == expected, segment.end > segment.start, segment.received >= 0,
                segment.received <= segment.end - segment.start
            else { return false }
            expected = segment.end
        }
        return true
    }

    /// The same map with each complete segment folded into the one after it (which then starts
    /// earlier, with the folded bytes counted as received): what is stored stays as short as the
    /// number of gaps.
    public func compacted() -> [Segment] {
        var out: [Segment] = []
        out.reserveCapacity(count)
        var carried: Segment?
        for segment in self {
            var segment = segment
            if let done = carried {
                segment = Segment(start: done.start, end: segment.end, received: done.received + segment.received)
            }
            if segment.isComplete {
                carried = segment
            } else {
                out.append(segment)
                carried = nil
            }
        }
        if let carried { out.append(carried) }
        return out
    }
}
