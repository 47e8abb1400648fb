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
        return ids.filter { model.searchKeys[$0].map { contains($0, pattern) } ?? false }
    }

    /// `ids` in `sort` order. Keys are computed once per download, not once per comparison.
    public static func sorted(_ ids: [DownloadID], by sort: SortOrder, in model: DownloadListModel, nameRanks: [DownloadID: Int]? = nil) -> [DownloadID] {
        switch sort {
        case .added:
            return ids
        case .name:
            if let nameRanks { return sorted(ids) { nameRanks[$0] ?? Int.max } }
            return sorted(ids) { model.searchKeys[$0] ?? "" }
        case .progress:
            return sorted(ids) { -fraction(model[$0]) }
        case .speed:
            return sorted(ids) { -(model.sample(for: $0)?.bytesPerSecond ?? 0) }
        case .state:
            return sorted(ids) { rank(model[$0]?.state) }
        }
    }

    /// Every download's position in name order, to sort any subset by integers.
    public static func nameRanks(_ model: DownloadListModel) -> [DownloadID: Int] {
        let order = sorted(model.order) { model.searchKeys[$0] ?? "" }
        var ranks: [DownloadID: Int] = [:]
        ranks.reserveCapacity(order.count)
        for (i, id) in order.enumerated() { ranks[id] = i }
        return ranks
    }

    /// A stable sort by a precomputed key (ties keep the list order).
    private static func sorted<K: Comparable>(_ ids: [DownloadID], by key: (DownloadID) -> K) -> [DownloadID] {
        let keyed = ids.enumerated().map { (key: key($0.element), index: $0.offset, id: $0.element) }
        return keyed.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map(\.id)
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

    private static func fraction(_ d: Download?) -> Double {
        guard let d else { return 0 }
        if d.state == .finished { return 1 }
        guard let total = d.totalBytes, total > 0 else { return 0 }
        return Double(d.receivedBytes) / Double(total)
    }

    /// Active first, then what needs attention, then what is done.
    private static func rank(_ state: DownloadState?) -> Int {
        switch state {
        case .downloading: return 0
        case .waiting: return 1
        case .paused: return 2
        case .failed: return 3
        case .finished: return 4
        case nil: return 5
        }
    }
}
