import HaulCore

/// The engine's downloads in list order (rising order keys: the order waiting ones start in), found by id through a
/// position index, with the indexes the hot paths need kept up to date on every write: which
/// are waiting (for the scheduler), how many still have work, and which names are claimed.
/// With thousands of downloads nothing scans the whole table per event.
///
/// An array plus a ``PositionIndex`` rather than `[DownloadID: Download]`: with 100,000
/// downloads a dictionary of 312-byte values takes 262,144 buckets (~88 MB); this takes
/// ~31 MB + ~2 MB, and ``stored`` is the list-order snapshot without a copy.
struct DownloadTable {
    /// Every download, in list order, as last written; a running download's `receivedBytes`
    /// may be newer in ``progress``.
    private(set) var stored: ChunkedArray<Download> = []
    /// Bytes received by running downloads since their row was last written. Progress lands
    /// here rather than in ``stored``: a save holds a snapshot of `stored` while it encodes,
    /// and writing one row would copy all 100,000 of them (copy-on-write).
    private(set) var progress: [DownloadID: Int64] = [:]
    private var positions = PositionIndex()
    /// Waiting downloads in queue order.
    private(set) var waiting = WaitingQueue()
    /// Waiting or downloading: the engine is idle when this is zero.
    private(set) var activeCount = 0
    /// Paused by a policy (metered network, full disk): they resume by themselves.
    private(set) var heldCount = 0
    /// Paths claimed by downloads that are not finished, so a new claim never reuses one.
    private(set) var claimedPaths: [String: DownloadID] = [:]
    /// Counts the changes to what a save writes (rows and progress): the engine compares it
    /// with its count at the last save to tell whether the state file is up to date.
    private(set) var changeCount = 0
    /// The order key the next download added (or moved to the bottom) takes: after every other.
    private var nextQueueOrder = DownloadTable.firstQueueOrder
    /// What commands under way changed, for the journal (see ``beginTracking()``).
    private var tracked = TrackedChanges()

    struct TrackedChanges {
        var depth = 0
        var written: Set<DownloadID> = []
        /// ``written`` in the order first written: a batch of adds is in list order already.
        var writtenOrder: [DownloadID] = []
        var removed: [DownloadID] = []

        mutating func wrote(_ id: DownloadID) {
            if written.insert(id).inserted { writtenOrder.append(id) }
        }
    }

    /// Reads a download (with its latest progress); setting replaces it in place, appends a
    /// new one at the end of the list, or (nil) removes it, which is O(n) (see ``remove(_:)``).
    subscript(id: DownloadID) -> Download? {
        get {
            guard let position = positions[id] else { return nil }
            var d = stored[position]
            if let received = progress[id] { d.receivedBytes = received }
            return d
        }
        set {
            guard let new = newValue else { return remove([id]) }
            changeCount += 1
            if tracked.depth > 0 { tracked.wrote(id) }
            progress[id] = nil
            if let position = positions[id] {
                unindex(stored[position])
                index(new)
                stored[position] = new
                if !inOrder(at: position) { reposition(from: position) }
            } else {
                index(new)
                positions[id] = stored.count
                stored.append(new)
            }
        }
    }

    /// Whether `id` is in the table (without copying its download).
    func contains(_ id: DownloadID) -> Bool { positions[id] != nil }

    /// Room for `count` more downloads, so adding a long list grows the storage and the index
    /// once rather than doubling them step by step (at least doubling, so that many small adds
    /// still grow geometrically).
    mutating func reserveCapacity(adding count: Int) {
        let needed = stored.count + count
        if needed > positions.capacity { positions.reserveCapacity(max(needed, positions.capacity * 2)) }
    }

    /// Removes every download in `ids` in one pass (removing them one by one is O(n) each).
    mutating func remove(_ ids: Set<DownloadID>) {
        guard !ids.isEmpty else { return }
        changeCount += 1
        if tracked.depth > 0 {
            tracked.written.subtract(ids)
            tracked.removed += ids.filter { positions[$0] != nil }
        }
        var kept: ChunkedArray<Download> = []
        for d in stored {
            if ids.contains(d.id) {
                unindex(d)
                progress[d.id] = nil
            } else {
                kept.append(d)
            }
        }
        stored = kept
        positions.removeAll(keepingCapacity: true)
        for position in stored.indices { positions[stored[position].id] = position }
    }

    /// The waiting downloads to start now, added to `places` (see ``Scheduler``): among `only`
    /// of them when set. `hosts` says whose shared connection a download would ride.
    mutating func downloadsToStart(
        among only: Set<DownloadID>?, places: inout ConnectionPlaces, limit: Int, hosts: SharedHosts
    ) -> [DownloadID] {
        let candidates =
            if let only {
                Scheduler.candidates(waiting: &waiting, among: only, places: places, limit: limit)
            } else {
                Scheduler.candidates(waiting: &waiting, places: places, limit: limit)
            }
        return Scheduler.downloadsToStart(candidates, places: &places, limit: limit) { id in
            // No download is looked up while no host shares (every plain-http run).
            hosts.isEmpty ? nil : self[id].flatMap(hosts.sharedHost)
        }
    }

    /// Records a running download's byte count without touching ``stored``.
    mutating func recordProgress(_ id: DownloadID, received: Int64) {
        guard positions[id] != nil else { return }
        changeCount += 1
        progress[id] = received
    }

    /// Every download in list order with its latest progress, as an array (a copy).
    var all: [Download] {
        var rows = Array(stored)
        for (id, received) in progress { if let position = positions[id] { rows[position].receivedBytes = received } }
        return rows
    }

    /// Every download in list order with its latest progress, sharing the stored array: what a
    /// snapshot hands out, so a UI or a client reading it never makes the engine copy its list.
    var list: DownloadList { DownloadList(stored, progress: progress) }

    /// Hands each download, with its latest progress, to `body` in list order.
    func forEachDownload(_ body: (Download) -> Void) {
        for i in stored.indices {
            if let received = progress[stored[i].id] {
                var current = stored[i]
                current.receivedBytes = received
                body(current)
            } else {
                body(stored[i])
            }
        }
    }

    init() {}

    /// A table of `downloads` in their order, adopting the array's storage. An id that comes
    /// again (a hand-edited state file) keeps its first place and takes the later value.
    init(_ downloads: ChunkedArray<Download>) {
        stored = downloads
        let last = downloads.indices.reduce(UInt64(0)) { max($0, downloads[$1].queueOrder) }
        nextQueueOrder = max(Self.firstQueueOrder, last + 1)
        positions.reserveCapacity(downloads.count)
        var duplicates = false
        // By index: `for d in downloads` copies each download (retaining its strings).
        for position in downloads.indices {
            if positions.updateValue(position, forKey: downloads[position].id) != nil { duplicates = true }
        }
        guard !duplicates else {
            self = DownloadTable()
            for d in downloads { self[d.id] = d }
            return
        }
        for position in downloads.indices { index(downloads[position]) }
    }

    /// The ids in list order.
    var ids: [DownloadID] { stored.map(\.id) }

    // MARK: Queue order

    /// The order key of the first download when the state is read: keys below it are left for
    /// downloads moved to the top.
    static let firstQueueOrder: UInt64 = 1 << 32

    /// An order key after every other, for a download added to the list.
    mutating func takeQueueOrder() -> UInt64 {
        defer { nextQueueOrder += 1 }
        return nextQueueOrder
    }

    /// Where `id` goes for `place`, and the downloads whose order keys change for it (the caller
    /// writes them back through the subscript); nil when it stays where it is.
    mutating func move(_ id: DownloadID, _ place: QueueMove) -> (position: Int, changed: [Download])? {
        guard let from = positions[id] else { return nil }
        var d = self[id]!
        switch place {
        case .top:
            guard from > 0, stored[0].queueOrder > 0 else { return nil }
            d.queueOrder = stored[0].queueOrder - 1
            return (0, [d])
        case .bottom:
            guard from < stored.count - 1 else { return nil }
            d.queueOrder = takeQueueOrder()
            return (stored.count - 1, [d])
        case .up, .down:
            let to = place == .up ? from - 1 : from + 1
            guard stored.indices.contains(to) else { return nil }
            var other = self[stored[to].id]!
            swap(&d.queueOrder, &other.queueOrder)
            return (to, [d, other])
        }
    }

    /// Moves `id` to just before `target` (nil: to the end of the list) and answers its new
    /// position; nil when either is unknown or it is there already. It takes an order key between
    /// its new neighbours' keys; where they leave no room, the keys from there on rise by one,
    /// which keeps their order.
    mutating func place(_ id: DownloadID, before target: DownloadID?) -> Int? {
        guard let from = positions[id], target != id else { return nil }
        let targetPosition = target.map { positions[$0] } ?? stored.count
        guard let targetPosition, targetPosition != from + 1, target != nil || from != stored.count - 1 else {
            return nil
        }
        changeCount += 1
        var row = stored.remove(at: from)
        let to = targetPosition > from ? targetPosition - 1 : targetPosition
        let lower = to > 0 ? stored[to - 1].queueOrder : nil
        let upper = to < stored.count ? stored[to].queueOrder : nil
        if row.state == .waiting { waiting.remove(row.id) }
        switch (lower, upper) {
        case (_, nil):
            row.queueOrder = takeQueueOrder()
        case (nil, let upper?) where upper > 0:
            row.queueOrder = upper - 1
        case (let lower?, let upper?) where upper - lower > 1:
            row.queueOrder = lower + (upper - lower) / 2
        case (_, let upper?):
            row.queueOrder = upper
            for i in to..<stored.count {
                stored[i].queueOrder += 1
                if stored[i].state == .waiting { waiting.insert(stored[i].id, order: stored[i].queueOrder) }
            }
            nextQueueOrder = max(nextQueueOrder, stored[stored.count - 1].queueOrder + 1)
        }
        if row.state == .waiting { waiting.insert(row.id, order: row.queueOrder) }
        stored.insert(row, at: to)
        for p in min(from, to)...max(from, to) { positions[stored[p].id] = p }
        if tracked.depth > 0 {
            tracked.wrote(id)
            // Renumbered keys: every row from its new place on.
            if upper != nil, row.queueOrder == upper {
                for p in to..<stored.count { tracked.wrote(stored[p].id) }
            }
        }
        return to
    }

    /// Starts noting the downloads written and removed, for the journal record of a command;
    /// commands may overlap (the engine awaits inside some), so tracking nests.
    mutating func beginTracking() { tracked.depth += 1 }

    /// Ends one command's tracking: the downloads written (as they are now) and the ids removed
    /// since tracking began or was last taken.
    mutating func endTracking() -> (written: [Download], removed: [DownloadID]) {
        tracked.depth -= 1
        var written = tracked.writtenOrder.compactMap { tracked.written.contains($0) ? self[$0] : nil }
        // Added downloads come in list order already: sorting a thousand moves them for nothing.
        if !zip(written, written.dropFirst()).allSatisfy({ $0.queueOrder < $1.queueOrder }) {
            written.sort { $0.queueOrder < $1.queueOrder }
        }
        let removed = tracked.removed
        tracked.written.removeAll()
        tracked.writtenOrder.removeAll()
        tracked.removed.removeAll()
        return (written, removed)
    }

    /// Whether the row at `position` sorts between its neighbours by order key.
    private func inOrder(at position: Int) -> Bool {
        let key = stored[position].queueOrder
        if position > 0, stored[position - 1].queueOrder > key { return false }
        if position + 1 < stored.count, stored[position + 1].queueOrder < key { return false }
        return true
    }

    /// Moves the row at `position` to where its order key puts it, keeping ``positions`` right.
    private mutating func reposition(from position: Int) {
        let row = stored.remove(at: position)
        let to = stored.firstIndex { $0.queueOrder > row.queueOrder } ?? stored.count
        stored.insert(row, at: to)
        for p in min(position, to)...max(position, to) { positions[stored[p].id] = p }
    }

    private mutating func index(_ d: Download) {
        if d.state == .waiting { waiting.insert(d.id, order: d.queueOrder) }
        if d.state.isActive { activeCount += 1 }
        if d.isHeld { heldCount += 1 }
        if d.state != .finished, let path = d.path { claimedPaths[path] = d.id }
    }

    private mutating func unindex(_ d: Download) {
        if d.state == .waiting { waiting.remove(d.id) }
        if d.state.isActive { activeCount -= 1 }
        if d.isHeld { heldCount -= 1 }
        if d.state != .finished, let path = d.path, claimedPaths[path] == d.id { claimedPaths[path] = nil }
    }
}
