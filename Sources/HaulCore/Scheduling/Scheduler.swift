/// Which waiting downloads to start: first in, first out, never more than the limit running.
public enum Scheduler {
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
