import HaulCore

/// A list's run at a glance, the line under `haul run`'s live lines: "812/1000 files, 25.4 MiB,
/// 14.2 MiB/s, ETA 3s", as aria2c's readout sums its downloads.
///
/// Counts only, never a collection of the run's downloads: a list may hold 100,000.
struct RunTally {
    /// Downloads this run is to finish: those waiting or running when it began, and those added since.
    private(set) var files: Int
    private(set) var finished = 0
    private(set) var failed = 0
    /// Bytes of the downloads that finished.
    private(set) var finishedBytes: Int64 = 0
    /// The list's bytes over the last few seconds: its speed, where its files are small.
    private var arrivals = ArrivalRate()

    init(files: Int) {
        self.files = files
    }

    mutating func recordAdded() { files += 1 }

    mutating func recordFinished(bytes: Int64) {
        finished += 1
        finishedBytes += bytes
    }

    mutating func recordFailed() { failed += 1 }

    /// A download of the run that was removed before it finished: it is no longer to come.
    mutating func recordRemoved() { files = max(finished + failed, files - 1) }

    /// The line at `now` (seconds on any steady clock), with the running downloads' samples;
    /// nil while the run has one download (its own line says it all).
    mutating func line(running: some Sequence<ProgressSample>, now: Double) -> String? {
        guard files > 1 else { return nil }
        var received = finishedBytes
        var speed = 0.0
        var left = Left()
        for sample in running {
            left.running += 1
            received += sample.receivedBytes
            speed += sample.bytesPerSecond
            if let total = sample.totalBytes {
                left.known += max(0, total - sample.receivedBytes)
            } else {
                left.unsized.append(sample.receivedBytes)
            }
        }
        if let measured = arrivals.record(received, at: now) { speed = measured }
        var line = "\(finished)/\(files) files, \(Formatting.bytes(received))"
        if failed > 0 { line += " (\(failed) failed)" }
        line +=
            ", \(Formatting.rate(speed)), ETA \(Formatting.duration(eta(speed, left)))"
        return line
    }

    /// What the running downloads have left: bytes of those whose size is known, and what
    /// those of unknown size have received so far.
    struct Left {
        var running = 0
        var known: Int64 = 0
        var unsized: [Int64] = []
    }

    /// Seconds to the end at `speed`: what the running downloads have left, and for the rest
    /// (not started, or their size not yet known) the mean size of the finished ones (a list's
    /// files are often alike); unknown until that can be worked out.
    private func eta(_ speed: Double, _ left: Left) -> Double? {
        guard speed > 0 else { return nil }
        let waiting = max(0, files - finished - failed - left.running)
        var bytes = Double(left.known)
        if waiting > 0 || !left.unsized.isEmpty {
            guard finished > 0 else { return nil }
            let mean = Double(finishedBytes) / Double(finished)
            bytes += Double(waiting) * mean
            for received in left.unsized { bytes += max(0, mean - Double(received)) }
        }
        return bytes / speed
    }
}
