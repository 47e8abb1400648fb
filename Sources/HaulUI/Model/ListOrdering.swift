import HaulCore

/// The orders the list can be sorted in; `s` cycles through them.
public enum SortOrder: String, CaseIterable, Sendable {
    case added, name, progress, speed, state

    public var next: SortOrder {
        let all = SortOrder.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Orders that change with every progress event are re-sorted at most once a second.
    public var followsProgress: Bool { self == .progress || self == .speed }
}

/// Which downloads are listed, and in what order.
public enum ListOrdering {
    public static func visibleIDs(_ model: DownloadListModel, filter: String, sort: SortOrder) -> [DownloadID] {
        let needle = filter.lowercased()
        return sorted(needle.isEmpty ? model.order : filtered(model.order, by: needle, in: model), by: sort, in: model)
    }

    /// The ids (in their order) whose name contains `needle` (lower-cased).
    public static func filtered(_ ids: [DownloadID], by needle: String, in model: DownloadListModel) -> [DownloadID] {
        let pattern = Array(needle.utf8)
        if ids.count == model.order.count {  // the whole list: by position, no lookups
            var result: [DownloadID] = []
            for (position, key) in model.searchKeyList.enumerated() where contains(key, pattern) { result.append(model.order[position]) }
            return result
        }
        return ids.filter { model.searchKey(for: $0).map { contains($0, pattern) } ?? false }
    }

    /// `ids` (the list, or a filtered part of it, in list order) in `sort` order. `nameRanks`
    /// are the names' ranks by position in the list (see ``nameRanks(_:)``).
    public static func sorted(_ ids: [DownloadID], by sort: SortOrder, in model: DownloadListModel, nameRanks: [Int32]? = nil) -> [DownloadID] {
        guard sort != .added else { return ids }
        // Positions in the list; a filter keeps list order, so they rise and break ties stably.
        let positions: [Int32] = ids.count == model.order.count
            ? Array(0..<Int32(ids.count))
            : ids.map { Int32(model.positions[$0] ?? 0) }
        let info = model.sortInfos
        switch sort {
        case .added:
            return ids
        case .name:
            if let nameRanks, nameRanks.count == model.order.count { return sorted(positions, of: model.order) { nameRanks[Int($0)] } }
            return sorted(positions, of: model.order) { model.searchKeyList[Int($0)] }
        case .progress:
            return sorted(positions, of: model.order) { -info[Int($0)].fraction }
        case .speed:
            // Only running downloads have a speed; the rest keep their order after them.
            return sorted(positions, of: model.order) { -(model.live[model.order[Int($0)]]?.bytesPerSecond ?? 0) }
        case .state:
            return sorted(positions, of: model.order) { info[Int($0)].stateRank }
        }
    }

    /// Each position's rank in name order, from the names by position (which progress never
    /// changes, so a worker thread can compute it ahead of time).
    public static func nameRanks(_ searchKeyList: [String]) -> [Int32] {
        let byName = sortedPositions(Array(0..<Int32(searchKeyList.count))) { searchKeyList[Int($0)] }
        var ranks = [Int32](repeating: 0, count: searchKeyList.count)
        for (rank, position) in byName.enumerated() { ranks[Int(position)] = Int32(rank) }
        return ranks
    }

    /// A stable sort of list positions by a key (ties keep the list order), returning ids.
    /// Sorts small (key, position) pairs, so nothing is retained or released while sorting.
    private static func sorted<K: Comparable>(_ positions: [Int32], of order: [DownloadID], by key: (Int32) -> K) -> [DownloadID] {
        sortedPositions(positions, by: key).map { order[Int($0)] }
    }

    private static func sortedPositions<K: Comparable>(_ positions: [Int32], by key: (Int32) -> K) -> [Int32] {
        var keyed: [(key: K, position: Int32)] = []
        keyed.reserveCapacity(positions.count)
        for position in positions { keyed.append((key(position), position)) }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        return keyed.map(\.position)
    }

    /// Substring search on UTF-8 bytes (names are short; this beats `String.contains` by far).
    static func contains(_ text: String, _ pattern: [UInt8]) -> Bool {
        guard !pattern.isEmpty else { return true }
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= pattern.count else { return false }
            let first = pattern[0]
            var i = 0
            let last = bytes.count - pattern.count
            while i <= last {
                if bytes[i] == first {
                    var j = 1
                    while j < pattern.count, bytes[i + j] == pattern[j] { j += 1 }
                    if j == pattern.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}
