/// Which waiting downloads to start: first in, first out, never more than the limit running.
public enum Scheduler {
    /// - Parameter waiting: the waiting downloads and their queue positions (ties go by id).
    public static func downloadsToStart(waiting: [DownloadID: UInt64], running: Int, limit: Int) -> [DownloadID] {
        let free = limit - running
        guard free > 0, !waiting.isEmpty else { return [] }
        if free == 1 {
            return waiting.min { ($0.value, $0.key) < ($1.value, $1.key) }.map { [$0.key] } ?? []
        }
        return waiting.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(free).map(\.key)
    }
}
