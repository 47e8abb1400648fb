/// Bytes per second over the last few seconds, from a running count of the bytes that arrived.
///
/// Small files end before their own speed is ever measured, so for a list of them the running
/// downloads' speeds add up to nothing; what the list moves is its bytes over a window instead.
public struct ArrivalRate: Sendable {
    /// How far back it looks, in seconds.
    public static let window = 3.0
    /// The count at each reading of the last few seconds, oldest first.
    private var recent: [(at: Double, bytes: Int64)] = []

    public init() {}

    /// Records that `arrived` bytes in all had arrived at `now` (seconds on any steady clock);
    /// returns the bytes per second over the window once it spans half a second.
    public mutating func record(_ arrived: Int64, at now: Double) -> Double? {
        recent.append((now, arrived))
        while recent.count > 2, now - recent[1].at >= Self.window { recent.removeFirst() }
        guard let first = recent.first, now - first.at >= 0.5 else { return nil }
        return Double(max(0, arrived - first.bytes)) / (now - first.at)
    }
}
