import HaulEngine

/// wget's `-T`, aria2c's `--timeout` and curl's `--connect-timeout` on `haul URL…`: how long a
/// try waits for a connection and for each byte before it counts as failed (and is tried again).
/// The HTTP pool holds them for every download it fetches, so they hold only where this command
/// runs the downloads itself, not in a haul it hands them to.
struct CommandTimeouts: Equatable {
    /// No byte for this long: the try has stalled.
    var stall: Duration?
    /// No connection within this long.
    var connect: Duration?

    /// `-T N` sets both, as wget's does; `--connect-timeout` then sets the connection's own.
    init(timeout: Int?, connectTimeout: Int?) {
        stall = timeout.map { .seconds($0) }
        connect = (connectTimeout ?? timeout).map { .seconds($0) }
    }

    var isEmpty: Bool { stall == nil && connect == nil }

    func apply(to configuration: inout EngineConfiguration) {
        if let stall { configuration.stallTimeout = stall }
        if let connect { configuration.connectTimeout = connect }
    }
}
