import HaulCore

/// The engine's downloads by id, with the indexes the hot paths need kept up to date on
/// every write: which are waiting (for the scheduler), how many still have work, and which
/// names are claimed. With thousands of downloads nothing scans the whole table per event.
struct DownloadTable {
    private(set) var storage: [DownloadID: Download] = [:]
    /// Waiting downloads and their queue position.
    private(set) var waiting: [DownloadID: UInt64] = [:]
    /// Waiting or downloading: the engine is idle when this is zero.
    private(set) var activeCount = 0
    /// Paused by a policy (metered network, full disk): they resume by themselves.
    private(set) var heldCount = 0
    /// Paths claimed by downloads that are not finished, so a new claim never reuses one.
    private(set) var claimedPaths: [String: DownloadID] = [:]

    subscript(id: DownloadID) -> Download? {
        get { storage[id] }
        set {
            if let old = storage[id] { unindex(old) }
            if let new = newValue { index(new) }
            storage[id] = newValue
        }
    }

    mutating func reserveCapacity(_ count: Int) {
        storage.reserveCapacity(count)
    }

    var values: Dictionary<DownloadID, Download>.Values { storage.values }
    var ids: Dictionary<DownloadID, Download>.Keys { storage.keys }

    private static func isHeld(_ d: Download) -> Bool {
        d.state == .paused && (d.pauseCause == .metered || d.pauseCause == .diskFull)
    }

    private mutating func index(_ d: Download) {
        if d.state == .waiting { waiting[d.id] = d.queueOrder }
        if d.state.isActive { activeCount += 1 }
        if Self.isHeld(d) { heldCount += 1 }
        if d.state != .finished, let path = d.path { claimedPaths[path] = d.id }
    }

    private mutating func unindex(_ d: Download) {
        if d.state == .waiting { waiting[d.id] = nil }
        if d.state.isActive { activeCount -= 1 }
        if Self.isHeld(d) { heldCount -= 1 }
        if d.state != .finished, let path = d.path, claimedPaths[path] == d.id { claimedPaths[path] = nil }
    }
}
