import HaulCore
import Synchronization

/// The most connections one running download may use; the engine changes it while the download
/// runs (a key in the TUI, `haul connections`), the download reads it each time it would add one.
final class ConnectionLimit: Sendable {
    private let value: Atomic<Int>

    init(_ limit: Int) { value = Atomic(limit) }

    var current: Int { value.load(ordering: .relaxed) }
    func set(_ limit: Int) { value.store(limit, ordering: .relaxed) }
}

/// Connections open to each server across all downloads. A download's first connection is
/// always let through (so a queue of downloads to one server never waits on this); further ones
/// only while the server has fewer than ``perServer``. When the server is full, they are shared
/// in queue order: a download that asked for one and found no room makes every later download
/// that holds more than one give one back (``shouldGiveWay(_:_:now:)``).
final class ServerConnections: Sendable {
    /// The most connections haul opens to one server (host and port), as aria2's `-x` caps it.
    static let perServer = 16
    /// How long a download that found no room counts as waiting for a connection.
    static let waitingFor: Duration = .seconds(1)

    /// One download's hold on a server.
    struct Holder: Hashable, Sendable {
        let id: DownloadID
        /// Its place in the queue when it started: lower comes first.
        let order: UInt64
    }

    private struct Server {
        var counts: [Holder: Int] = [:]
        /// When each download last found the server full.
        var refused: [Holder: Duration] = [:]
        var total: Int { counts.values.reduce(0, +) }
    }

    private let open = Mutex<[String: Server]>([:])

    /// Counts a download's first connection to `server`.
    func openFirst(_ server: String, _ holder: Holder) {
        open.withLock { $0[server, default: Server()].counts[holder, default: 0] += 1 }
    }

    /// Counts a further connection to `server`, if the server has room for one that no download
    /// earlier in the queue is waiting for.
    func openMore(_ server: String, _ holder: Holder, now: Duration) -> Bool {
        open.withLock { servers in
            let state = servers[server, default: Server()]
            let earlierWaits = state.refused.contains { other, at in
                other.order < holder.order && now - at <= Self.waitingFor && state.counts[other] != nil
            }
            guard state.total < Self.perServer, !earlierWaits else {
                servers[server, default: Server()].refused[holder] = now
                return false
            }
            servers[server, default: Server()].counts[holder, default: 0] += 1
            servers[server]?.refused[holder] = nil
            return true
        }
    }

    /// Whether `server` would take a further connection now.
    func hasRoom(_ server: String) -> Bool {
        open.withLock { ($0[server]?.total ?? 0) < Self.perServer }
    }

    /// Whether `holder` should give one of its connections to `server` back: a download earlier
    /// in the queue found no room there lately, and `holder` has more than one.
    func shouldGiveWay(_ server: String, _ holder: Holder, now: Duration) -> Bool {
        open.withLock { servers in
            guard let state = servers[server], state.counts[holder, default: 0] > 1 else { return false }
            return state.refused.contains { other, at in
                other.order < holder.order && now - at <= Self.waitingFor && state.counts[other] != nil
            }
        }
    }

    func close(_ server: String, _ holder: Holder) {
        open.withLock { servers in
            let left = servers[server, default: Server()].counts[holder, default: 1] - 1
            servers[server]?.counts[holder] = left > 0 ? left : nil
            if left <= 0 { servers[server]?.refused[holder] = nil }
            if servers[server]?.counts.isEmpty == true { servers[server] = nil }
        }
    }
}
