/// The places of `-j` that running downloads take, where small files of one host share an HTTP/2
/// connection.
///
/// A place is a connection's worth. A download with a connection of its own takes a place. Small
/// files of a host that answers over HTTP/2 ride as streams of its connection, up to
/// ``streamsPerPlace`` of them to a place, as wget2's threads each keep many requests in flight:
/// with a round trip of 20 ms a connection waiting for one small file at a time is idle most of
/// that time. A large file always takes a place of its own, so `-j` still bounds how many large
/// files share the bandwidth.
public struct ConnectionPlaces: Sendable, Equatable {
    /// How many small files of one host share a place: nginx serves 128 streams on a connection
    /// by default, which `-j 16` fills.
    public static let streamsPerPlace = 8

    /// Places taken.
    public private(set) var used = 0
    /// Streams still free in the places a host's shared connection already takes.
    private var spare: [String: Int] = [:]
    private let streamsPerPlace: Int

    /// The places that `running` take: each running download's shared host (see
    /// ``SharedHosts``), nil for one with a connection of its own.
    public init(running: some Sequence<String?>, streamsPerPlace: Int = Self.streamsPerPlace) {
        self.streamsPerPlace = max(1, streamsPerPlace)
        for host in running { take(host) }
    }

    /// How many waiting downloads might start under `limit`: the free places and every spare
    /// stream.
    public func room(limit: Int) -> Int {
        max(0, limit - used) + spare.values.reduce(0, +)
    }

    /// Starts a download riding `host`'s shared connection (nil: one with a connection of its
    /// own) if a spare stream or a free place under `limit` lets it; false leaves it waiting.
    public mutating func admit(_ host: String?, limit: Int) -> Bool {
        if let host, let free = spare[host], free > 0 {
            spare[host] = free - 1
            return true
        }
        guard used < limit else { return false }
        take(host)
        return true
    }

    private mutating func take(_ host: String?) {
        guard let host else {
            used += 1
            return
        }
        if let free = spare[host], free > 0 {
            spare[host] = free - 1
        } else {
            used += 1
            spare[host, default: 0] += streamsPerPlace - 1
        }
    }
}
