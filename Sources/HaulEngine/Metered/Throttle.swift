import Synchronization

/// A token bucket shared by all transfers: the speed cap for allowed downloads on a
/// metered network. A transfer asks how long to wait after each chunk it wrote.
final class Throttle: Sendable {
    private struct Bucket {
        var rate: Double?
        var tokens: Double = 0
        var last: Double = 0
    }

    /// Below this the pauses between chunks would outlast the stall timeout.
    static let minimumRate: Int64 = 16 * 1024

    private let bucket = Mutex(Bucket())

    /// Bytes per second, or nil for no limit.
    func setRate(_ rate: Int64?) {
        bucket.withLock { b in
            b.rate = rate.map { Double(max($0, Self.minimumRate)) }
            b.tokens = 0
            b.last = Monotonic.seconds()
        }
    }

    /// The cap in bytes per second, nil when there is none.
    var rate: Double? { bucket.withLock { $0.rate } }

    /// Takes `bytes` from the bucket; returns the seconds to wait before reading more.
    func consume(_ bytes: Int) -> Double {
        bucket.withLock { b in
            guard let rate = b.rate else { return 0 }
            let now = Monotonic.seconds()
            // At most one second of burst.
            b.tokens = min(rate, b.tokens + (now - b.last) * rate)
            b.last = now
            b.tokens -= Double(bytes)
            return b.tokens < 0 ? -b.tokens / rate : 0
        }
    }
}
