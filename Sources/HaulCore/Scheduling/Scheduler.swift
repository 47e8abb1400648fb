/// Which waiting downloads to start: first in, first out, never more than the limit running.
public enum Scheduler {
    /// - Parameter waiting: the waiting downloads in queue order (ties go by id).
    public static func downloadsToStart(waiting: inout WaitingQueue, running: Int, limit: Int) -> [DownloadID] {
        let free = limit - running
        guard free > 0 else { return [] }
        return waiting.first(free)
    }

    /// As ``downloadsToStart(waiting:running:limit:)``, among `only` of them.
    public static func downloadsToStart(waiting: WaitingQueue, among only: Set<DownloadID>, running: Int, limit: Int)
        -> [DownloadID]
    {
        waiting.first(limit - running, among: only)
    }
}
