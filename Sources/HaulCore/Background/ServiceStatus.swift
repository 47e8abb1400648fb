/// The one-line status a service manager shows for the daemon (`systemctl --user status haul`):
/// how many downloads are moving bytes and how fast, from the progress samples the engine sends.
/// A download counts as downloading while it sent a sample within ``freshness`` seconds.
public struct ServiceStatus: Sendable {
    public static let freshness = 3.0

    private var latest: [DownloadID: (rate: Double, at: Double)] = [:]

    public init() {}

    /// Notes a sample taken at `now` (seconds on any monotonic clock).
    public mutating func record(_ sample: ProgressSample, at now: Double) {
        latest[sample.id] = (sample.bytesPerSecond, now)
    }

    /// A download that stopped (finished, failed, paused, removed) no longer counts.
    public mutating func forget(_ id: DownloadID) {
        latest[id] = nil
    }

    /// "3 downloading, 1.2 MiB/s", or "idle".
    public mutating func line(at now: Double) -> String {
        latest = latest.filter { now - $0.value.at < Self.freshness }
        guard !latest.isEmpty else { return "idle" }
        let rate = latest.values.reduce(0) { $0 + $1.rate }
        return "\(latest.count) downloading, \(Formatting.rate(rate))"
    }
}
