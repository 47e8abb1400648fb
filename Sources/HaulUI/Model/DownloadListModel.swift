import HaulCore

/// The UI's copy of the downloads, kept up to date from engine events, with the live numbers
/// (speed, ETA) that only progress events carry and the per-state counts for the header.
public struct DownloadListModel: Sendable {
    /// The downloads' rows by position in ``order``: an array and the ``positions`` index rather
    /// than a dictionary, and slim rows rather than whole downloads (see ``ListRow``).
    private var rows: [ListRow] = []
    /// List order: the engine's, which is the order waiting downloads start in.
    public private(set) var order: [DownloadID] = []
    public private(set) var live: [DownloadID: ProgressSample] = [:]
    public private(set) var counts: [DownloadState.Kind: Int] = [:]
    /// Bumped whenever the set of downloads or any state changes (for re-sorting/filtering).
    public private(set) var structureVersion = 0
    /// Bumped when a download comes or goes or its name changes (for the name order).
    public private(set) var namesVersion = 0
    /// Each download's name, made terminal-safe and lower-cased once, by position in ``order``:
    /// filtering and sorting by name read it without hash lookups.
    public private(set) var searchKeyList: [String] = []
    /// Where each download is in ``order``.
    public private(set) var positions = PositionIndex()
    /// What the progress and state orders sort by, by position in ``order``: sorting 100,000 rows
    /// reads neither a `Download` nor a hash table.
    public private(set) var sortInfos: [SortInfo] = []
    /// The metered-network status, once the engine reported it.
    public private(set) var network: NetworkStatus?
    /// Bytes that arrived since the model was made, counted as the downloads' byte counts grow:
    /// the header's speed for a list of small files (see ``ArrivalRate``).
    public private(set) var arrivedBytes: Int64 = 0

    public init(_ downloads: [Download] = []) {
        reserve(downloads.count)
        for i in downloads.indices { insert(ListRow(downloads[i])) }
    }

    /// The model of `downloads`, each kept as its row only. Throws what reading them threw.
    public init(_ downloads: DownloadList) throws {
        reserve(downloads.count)
        try downloads.forEachDownload { insert(ListRow($0)) }
    }

    private mutating func reserve(_ count: Int) {
        rows.reserveCapacity(count)
        positions.reserveCapacity(count)
        sortInfos.reserveCapacity(count)
        searchKeyList.reserveCapacity(count)
        order.reserveCapacity(count)
    }

    public subscript(_ id: DownloadID) -> ListRow? { positions[id].map { rows[$0] } }

    public var count: Int { rows.count }

    public var totalSpeed: Double {
        live.values.reduce(0) { $0 + $1.bytesPerSecond }
    }

    public func count(_ state: DownloadState.Kind) -> Int { counts[state] ?? 0 }

    /// Applies an event; returns whether the download's state changed (or it came or went).
    @discardableResult
    public mutating func apply(_ event: EngineEvent) -> Bool {
        switch event {
        case .added(let d):
            if let position = positions[d.id] { return replace(ListRow(d), at: position) }
            insert(ListRow(d))
            return true
        case .updated(let d):
            guard let position = positions[d.id] else {
                insert(ListRow(d))
                return true
            }
            return replace(ListRow(d), at: position)
        case .progress(let sample):
            guard let position = positions[sample.id] else { return false }
            arrivedBytes += max(0, sample.receivedBytes - rows[position].receivedBytes)
            rows[position].receivedBytes = sample.receivedBytes
            rows[position].totalBytes = sample.totalBytes ?? rows[position].totalBytes
            sortInfos[position] = SortInfo(rows[position])
            if rows[position].state == .downloading { live[sample.id] = sample }
            return false
        case .removed(let id):
            return remove([id])
        case .removedMany(let ids):
            return remove(Set(ids))
        case .notice(let id, let message):
            if let position = positions[id] { rows[position].notice = message }
            return false
        case .network(let status):
            network = status
            return false
        case .moved(let id, let to):
            return move(id, to: to)
        }
    }

    /// Moves `id` to `position` in every by-position list, as the engine moved it in its list.
    private mutating func move(_ id: DownloadID, to position: Int) -> Bool {
        guard let from = positions[id], order.indices.contains(position), from != position else { return false }
        func moved<T>(_ array: inout [T]) { array.insert(array.remove(at: from), at: position) }
        moved(&rows)
        moved(&order)
        moved(&sortInfos)
        moved(&searchKeyList)
        for p in min(from, position)...max(from, position) { positions[order[p]] = p }
        structureVersion += 1
        namesVersion += 1
        return true
    }

    /// Drops `ids` from every by-position list in one pass; false when none was listed.
    private mutating func remove(_ ids: Set<DownloadID>) -> Bool {
        let gone = ids.filter { positions[$0] != nil }
        guard !gone.isEmpty else { return false }
        let keep = order.map { !gone.contains($0) }
        for (position, kept) in keep.enumerated() where !kept { counts[rows[position].state.kind, default: 1] -= 1 }
        func kept<T>(_ array: [T]) -> [T] {
            var result: [T] = []
            result.reserveCapacity(array.count - gone.count)
            for (position, element) in array.enumerated() where keep[position] { result.append(element) }
            return result
        }
        rows = kept(rows)
        order = kept(order)
        sortInfos = kept(sortInfos)
        searchKeyList = kept(searchKeyList)
        positions.removeAll(keepingCapacity: true)
        for (position, id) in order.enumerated() { positions[id] = position }
        for id in gone { live[id] = nil }
        structureVersion += 1
        namesVersion += 1
        return true
    }

    /// The download's name as filtering and sorting see it.
    public func searchKey(for id: DownloadID) -> String? { positions[id].map { searchKeyList[$0] } }

    /// Speed and ETA of a running download.
    public func sample(for id: DownloadID) -> ProgressSample? { live[id] }

    private static func searchKey(_ d: ListRow) -> String { TerminalText.sanitize(d.displayName).lowercased() }

    private mutating func insert(_ d: ListRow) {
        rows.append(d)
        index(d)
    }

    /// Adds the indexes for `d`, the last of ``rows``.
    private mutating func index(_ d: ListRow) {
        searchKeyList.append(Self.searchKey(d))
        positions[d.id] = order.count
        sortInfos.append(SortInfo(d))
        order.append(d.id)
        counts[d.state.kind, default: 0] += 1
        structureVersion += 1
        namesVersion += 1
    }

    private mutating func replace(_ d: ListRow, at position: Int) -> Bool {
        let old = rows[position]
        arrivedBytes += max(0, d.receivedBytes - old.receivedBytes)
        rows[position] = d
        sortInfos[position] = SortInfo(d)
        if d.state != .downloading { live[d.id] = nil }
        if old.fileName != d.fileName {
            searchKeyList[position] = Self.searchKey(d)
            namesVersion += 1
        }
        guard old.state != d.state || old.fileName != d.fileName else { return false }
        counts[old.state.kind, default: 1] -= 1
        counts[d.state.kind, default: 0] += 1
        structureVersion += 1
        return true
    }
}

/// A download's place in the progress and state orders.
public struct SortInfo: Sendable, Equatable {
    /// 0...1; finished counts as 1.
    public var fraction: Double
    /// Active first, then what needs attention, then what is done.
    public var stateRank: UInt8

    init(_ d: ListRow) {
        if d.state == .finished {
            fraction = 1
        } else if let total = d.totalBytes, total > 0 {
            fraction = Double(d.receivedBytes) / Double(total)
        } else {
            fraction = 0
        }
        switch d.state {
        case .downloading: stateRank = 0
        case .waiting: stateRank = 1
        case .paused: stateRank = 2
        case .failed: stateRank = 3
        case .finished: stateRank = 4
        }
    }
}
