/// What one transfer's reads draw from: the global speed limit (with the metered cap), its
/// download's own limit, and the metered data budget. Each connection of a segmented download
/// gets the same gates, so its connections share the download's limit.
struct Throttle: Sendable {
    let global: RateGate
    let own: RateGate?
    let metered: MeteredCounter

    /// Without arguments: no limit and nothing counted.
    init(global: RateGate = RateGate(), own: RateGate? = nil, metered: MeteredCounter = MeteredCounter()) {
        self.global = global
        self.own = own
        self.metered = metered
    }

    /// Takes `bytes` just read; returns the seconds to wait before reading more.
    func consume(_ bytes: Int) -> Double {
        var wait = global.consume(bytes)
        if let own { wait = max(wait, own.consume(bytes)) }
        return max(wait, metered.consume(bytes))
    }

    /// Whether a limit is what holds the reads back now.
    var isHolding: Bool { global.isHolding || own?.isHolding == true }

    /// The lowest limit in bytes per second, nil when there is none.
    var rate: Double? {
        switch (global.rate, own?.rate) {
        case (let g?, let o?): return min(g, o)
        case (let g, nil): return g
        case (nil, let o): return o
        }
    }
}
