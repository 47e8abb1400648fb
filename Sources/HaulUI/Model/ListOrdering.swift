import HaulCore

/// The orders the list can be sorted in; `s` cycles through them.
public enum SortOrder: String, CaseIterable, Sendable {
    /// The list's own order: the order waiting downloads start in.
    case queue, name, progress, speed, state

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
        let positions = ids.count == model.order.count ? nil : ids.map { Int32(model.positions[$0] ?? 0) }
        return filteredPositions(positions, by: needle, in: model).map { model.order[Int($0)] }
    }

    /// The list positions (of `positions`, or of the whole list when nil; in list order) whose
    /// name contains `needle` (lower-cased). Positions, not ids: no hash lookups per row.
    public static func filteredPositions(_ positions: [Int32]?, by needle: String, in model: DownloadListModel)
        -> [Int32]
    {
        let pattern = Array(needle.utf8)
        let keys = model.searchKeyList
        guard let positions else {
            var result: [Int32] = []
            for (position, key) in keys.enumerated() where contains(key, pattern) { result.append(Int32(position)) }
            return result
        }
        return positions.filter { contains(keys[Int($0)], pattern) }
    }

    /// `ids` (the list, or a filtered part of it, in list order) in `sort` order. `nameRanks`
    /// are the names' ranks by position in the list (see ``nameRanks(_:)``).
    public static func sorted(
        _ ids: [DownloadID], by sort: SortOrder, in model: DownloadListModel, nameRanks: [Int32]? = nil
    ) -> [DownloadID] {
        guard sort != .queue else { return ids }
        let positions: [Int32] =
            ids.count == model.order.count
            ? Array(0..<Int32(ids.count))
            : ids.map { Int32(model.positions[$0] ?? 0) }
        return sortedPositions(positions, by: sort, in: model, nameRanks: nameRanks).map { model.order[Int($0)] }
    }

    /// List positions (rising, as the list or a filter gives them) in `sort` order; ties keep
    /// list order. Keys are packed next to the position in one integer where they fit, so the
    /// sort compares machine words (100,000 rows in a few milliseconds).
    public static func sortedPositions(
        _ positions: [Int32], by sort: SortOrder, in model: DownloadListModel, nameRanks: [Int32]? = nil
    ) -> [Int32] {
        let info = model.sortInfos
        switch sort {
        case .queue:
            return positions
        case .name:
            guard let nameRanks, nameRanks.count == model.order.count else {
                return sortedPositions(positions) { model.searchKeyList[Int($0)] }
            }
            if positions.count == nameRanks.count { // the whole list: the ranks are the order
                var byRank = [Int32](repeating: 0, count: positions.count)
                for (position, rank) in nameRanks.enumerated() { byRank[Int(rank)] = Int32(position) }
                return byRank
            }
            return packedSort(positions) { UInt32(nameRanks[Int($0)]) }
        case .state:
            var buckets = [[Int32]](repeating: [], count: 5)
            for position in positions { buckets[min(4, Int(info[Int(position)].stateRank))].append(position) }
            return buckets.flatMap { $0 }
        case .progress:
            return descending(positions) { info[Int($0)].fraction }
        case .speed:
            // Only running downloads have a speed; the rest keep their order after them.
            guard !model.live.isEmpty else { return positions }
            var speeds = [Double](repeating: 0, count: model.order.count)
            for (id, sample) in model.live {
                if let position = model.positions[id] { speeds[position] = sample.bytesPerSecond }
            }
            return descending(positions) { speeds[Int($0)] }
        }
    }

    /// Sorts by a 32-bit key, then position: one `UInt64` per row.
    private static func packedSort(_ positions: [Int32], key: (Int32) -> UInt32) -> [Int32] {
        var packed = positions.map { UInt64(key($0)) << 32 | UInt64(UInt32(bitPattern: $0)) }
        packed.sort()
        return packed.map { Int32(bitPattern: UInt32(truncatingIfNeeded: $0)) }
    }

    /// Largest `value` first, ties in list order. Sorted on the value rounded to a `Float`
    /// (which keeps order, though it can merge close values), then each run of equal `Float`s
    /// is sorted again by the exact value.
    private static func descending(_ positions: [Int32], value: (Int32) -> Double) -> [Int32] {
        var sorted = packedSort(positions) { orderedBits(-Float(value($0))) }
        var start = 0
        while start < sorted.count {
            let key = Float(value(sorted[start]))
            var end = start + 1
            while end < sorted.count, Float(value(sorted[end])) == key { end += 1 }
            if end - start > 1, sorted[start..<end].contains(where: { value($0) != value(sorted[start]) }) {
                let run = sortedPositions(Array(sorted[start..<end])) { -value($0) }
                sorted.replaceSubrange(start..<end, with: run)
            }
            start = end
        }
        return sorted
    }

    /// A `Float`'s bits, mapped so that unsigned order is numeric order.
    private static func orderedBits(_ value: Float) -> UInt32 {
        let bits = (value == 0 ? 0 : value).bitPattern // -0 sorts with 0
        return bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
    }

    /// Each position's rank in name order, from the names by position (which progress never
    /// changes, so a worker thread can compute it ahead of time).
    public static func nameRanks(_ searchKeyList: [String]) -> [Int32] {
        let byName = sortedPositions(Array(0..<Int32(searchKeyList.count))) { searchKeyList[Int($0)] }
        var ranks = [Int32](repeating: 0, count: searchKeyList.count)
        for (rank, position) in byName.enumerated() { ranks[Int(position)] = Int32(rank) }
        return ranks
    }

    /// A stable sort of list positions by a key (ties keep the list order).
    /// Sorts small (key, position) pairs, so nothing is retained or released while sorting.
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
