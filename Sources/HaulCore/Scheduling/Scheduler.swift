/// Which waiting downloads to start: first in, first out, never more than the limit's places
/// taken (see ``ConnectionPlaces``).
public enum Scheduler {
    /// The waiting downloads worth looking at: the first `places.room(limit:)` in queue order
    /// (ties go by id). They stay queued.
    public static func candidates(waiting: inout WaitingQueue, places: ConnectionPlaces, limit: Int) -> [DownloadID] {
        waiting.first(places.room(limit: limit))
    }

    /// As ``candidates(waiting:places:limit:)``, among `only` of them (for a run that fetches
    /// only some downloads, as `haul URL` does).
    public static func candidates(
        waiting: inout WaitingQueue, among only: Set<DownloadID>, places: ConnectionPlaces, limit: Int
    ) -> [DownloadID] {
        waiting.first(places.room(limit: limit), among: only)
    }

    /// The candidates that a free place or a spare stream lets start, in their order, added to
    /// `places`; one that neither lets stays waiting, and those after it may still start.
    /// - Parameter sharedHost: the host whose shared connection a candidate would ride (see
    ///   ``SharedHosts``); nil for one that takes a place of its own.
    public static func downloadsToStart(
        _ candidates: [DownloadID], places: inout ConnectionPlaces, limit: Int, sharedHost: (DownloadID) -> String?
    ) -> [DownloadID] {
        candidates.filter { places.admit(sharedHost($0), limit: limit) }
    }
}
