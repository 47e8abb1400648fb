import HaulCore
import Synchronization

extension DiskSpace {
    /// What `statfs` said about each download directory, reused for a moment, so that many small
    /// files do not each pay for one.
    ///
    /// A reading serves for up to `maxAge`, as long as the bytes transfers were told
    /// fit since then stay within half of the space it found; else `statfs` runs again. So a
    /// nearly full disk is read for every file. A reading that is out of date can only let the
    /// early check pass: a write that then finds the disk full pauses the download all the same.
    final class VolumeCache: Sendable {
        private struct Reading {
            var volume: Volume
            var time: Duration
            /// Bytes transfers were told fit since the reading.
            var granted: Int64
        }

        private let readings = Mutex<[String: Reading]>([:])
        /// Readings kept before the out-of-date ones are dropped.
        private static let kept = 32
        private let maxAge: Duration
        private let read: @Sendable (String) -> Volume?
        private let clock: any MonotonicClock

        init(
            maxAge: Duration = .milliseconds(500),
            read: @escaping @Sendable (String) -> Volume? = { Volume(holding: $0) },
            clock: any MonotonicClock
        ) {
            self.maxAge = maxAge
            self.read = read
            self.clock = clock
        }

        /// The file system holding `directory`, about to take `bytes` more (nil: not known).
        func volume(holding directory: String, writing bytes: Int64?) -> Volume? {
            let time = clock.now
            let adding = max(0, bytes ?? 0)
            let recent = readings.withLock { readings -> Volume? in
                // Written so that no size a server claims can overflow.
                guard var reading = readings[directory], time - reading.time < maxAge,
                    adding <= reading.volume.available / 2 - reading.granted
                else { return nil }
                let left = Volume(
                    available: reading.volume.available - reading.granted, inMemory: reading.volume.inMemory)
                reading.granted += adding
                readings[directory] = reading
                return left
            }
            if let recent { return recent }
            guard let volume = read(directory) else { return nil }
            readings.withLock { readings in
                // A daemon may write into many directories over its life: old readings go.
                if readings.count >= Self.kept { readings = readings.filter { time - $0.value.time < maxAge } }
                readings[directory] = Reading(volume: volume, time: time, granted: adding)
            }
            return volume
        }
    }
}
