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
/// only while the server has fewer than ``perServer``.
final class ServerConnections: Sendable {
    /// The most connections haul opens to one server (host and port), as aria2's `-x` caps it.
    static let perServer = 16

    private let open = Mutex<[String: Int]>([:])

    /// Counts a download's first connection to `server`.
    func openFirst(_ server: String) {
        open.withLock { $0[server, default: 0] += 1 }
    }

    /// Counts a further connection to `server`, if the server has room for one.
    func openMore(_ server: String) -> Bool {
        open.withLock { counts in
            guard counts[server, default: 0] < Self.perServer else { return false }
            counts[server, default: 0] += 1
            return true
        }
    }

    /// Whether `server` would take a further connection now.
    func hasRoom(_ server: String) -> Bool {
        open.withLock { $0[server, default: 0] < Self.perServer }
    }

    func close(_ server: String) {
        open.withLock { counts in
            let left = counts[server, default: 1] - 1
            counts[server] = left > 0 ? left : nil
        }
    }
}
