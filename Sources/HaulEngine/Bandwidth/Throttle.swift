import HaulHTTP

/// What one transfer's reads draw from: the global speed limit (with the metered cap), its
/// download's own limit, and the metered data budget. Each connection of a segmented download
/// gets the same gates, so its connections share the download's limit.
struct Throttle: Sendable {
    let global: RateGate
    let own: RateGate?
    let metered: MeteredCounter

    init(global: RateGate, own: RateGate? = nil, metered: MeteredCounter = MeteredCounter()) {
        self.global = global
        self.own = own
        self.metered = metered
    }

    /// Takes `bytes` just read; returns the wait before reading more.
    ///
    /// The global limit is shared out per connection, so a download on few connections would
    /// get less than its own limit next to downloads on many. A download whose own limit is
    /// within an equal share of the global one therefore waits only for its own: it gets its
    /// limit, and its bytes still count against the global one, which the others share.
    func consume(_ bytes: Int) -> Duration {
        let globalWait = global.consume(bytes)
        var wait = globalWait
        if let own {
            let ownWait = own.consume(bytes)
            if let ownRate = own.rate, let share = global.equalShare, ownRate <= share {
                wait = ownWait
            } else {
                wait = max(wait, ownWait)
            }
        }
        return wait
    }

    /// Whether the network is metered now (uploads count then, and torrents do not seed).
    var isMetered: Bool { metered.isCounting }

    /// Whether a limit is what holds the reads back now (see ``RateGate/isHolding(share:)``).
    func isHolding(share: Double) -> Bool { global.isHolding(share: share) || own?.isHolding(share: share) == true }

    /// The lowest limit in bytes per second, nil when there is none.
    var rate: Double? {
        switch (global.rate, own?.rate) {
        case (let g?, let o?): return min(g, o)
        case (let g, nil): return g
        case (nil, let o): return o
        }
    }
}

extension Throttle: ReadPacing {
    func takeFromBudget(_ bytes: Int) -> Int { metered.take(bytes) }
    func countAgainstBudget(_ bytes: Int) { metered.count(bytes) }
}
