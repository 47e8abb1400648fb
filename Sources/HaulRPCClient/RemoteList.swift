import FoundationEssentials
import HaulCore

/// The list of a remote engine's downloads as a UI last heard it, and the events that bring a
/// UI from there to what the engine reports now. Pure: polls go in, events come out.
///
/// A UI's model appends a download it has not seen and applies moves, so this keeps the same
/// order to know which moves make the UI's order the engine's (active, waiting, then stopped).
struct RemoteList: Sendable {
    private(set) var downloads: [DownloadID: Download] = [:]
    private(set) var order: [DownloadID] = []
    private(set) var gids: [DownloadID: String] = [:]
    /// When each download was first seen (aria2 reports no dates).
    private var firstSeen: [DownloadID: Date] = [:]

    /// The downloads in the engine's order.
    var ordered: [Download] { order.compactMap { downloads[$0] } }

    func gid(for id: DownloadID) -> String { gids[id] ?? RemoteID.gid(for: id) }

    /// Takes a poll in. `complete` says it listed every download (active, waiting and stopped);
    /// otherwise only the downloads in it are updated and none is taken away.
    mutating func apply(_ fetched: [RemoteDownload], complete: Bool, now: Date) -> [EngineEvent] {
        var events: [EngineEvent] = []
        var seen = Set<DownloadID>()
        var fetchedOrder: [DownloadID] = []
        for remote in fetched {
            var d = remote.download
            guard seen.insert(d.id).inserted else { continue } // a GID listed twice counts once
            fetchedOrder.append(d.id)
            gids[d.id] = remote.gid
            d.addedAt = firstSeen[d.id] ?? now
            firstSeen[d.id] = d.addedAt
            if let old = downloads[d.id] {
                d.queueOrder = old.queueOrder
                if Self.differs(old, d) { events.append(.updated(d)) }
            } else {
                order.append(d.id)
                events.append(.added(d))
            }
            downloads[d.id] = d
            if let sample = remote.sample { events.append(.progress(sample)) }
        }
        guard complete else { return events }
        let gone = order.filter { !seen.contains($0) }
        if !gone.isEmpty {
            for id in gone {
                downloads[id] = nil
                gids[id] = nil
                firstSeen[id] = nil
            }
            order.removeAll { !seen.contains($0) }
            events.append(gone.count == 1 ? .removed(gone[0]) : .removedMany(gone))
        }
        for (position, id) in fetchedOrder.enumerated() where order[position] != id {
            guard let from = order[position...].firstIndex(of: id) else { continue }
            order.remove(at: from)
            order.insert(id, at: position)
            events.append(.moved(id, to: position))
        }
        for (position, id) in order.enumerated() { downloads[id]?.queueOrder = UInt64(position) }
        return events
    }

    /// Whether anything but progress changed: the bytes of a running download move with every
    /// poll and go as progress, not as a whole new download.
    private static func differs(_ old: Download, _ new: Download) -> Bool {
        guard old.state == .downloading, new.state == .downloading else { return old != new }
        var moved = new
        moved.receivedBytes = old.receivedBytes
        moved.activeConnections = old.activeConnections
        moved.segments = old.segments
        return old != moved
    }
}
