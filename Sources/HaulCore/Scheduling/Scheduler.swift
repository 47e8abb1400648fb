/// Which waiting downloads to start: first in, first out, never more than the limit running.
public enum Scheduler {
    /// The same decision from an index of waiting downloads and their queue positions.
    public static func downloadsToStart(waiting: [DownloadID: UInt64], running: Int, limit: Int) -> [DownloadID] {
        let free = limit - running
        guard free > 0, !waiting.isEmpty else { return [] }
        if free == 1 {
            return waiting.min { ($0.value, $0.key) < ($1.value, $1.key) }.map { [$0.key] } ?? []
        }
        return waiting.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(free).map(\.key)
    }

    public static func downloadsToStart<C: Collection>(_ downloads: C, running: Int, limit: Int) -> [DownloadID] where C.Element == Download {
        let free = limit - running
        guard free > 0 else { return [] }
        let waiting = downloads.filter { $0.state == .waiting }
        if waiting.count <= free { return waiting.sorted(by: queuedBefore).map(\.id) }
        return Array(waiting.sorted(by: queuedBefore).prefix(free).map(\.id))
    }

    static func queuedBefore(_ a: Download, _ b: Download) -> Bool {
        (a.queueOrder, a.id) < (b.queueOrder, b.id)
    }
}
