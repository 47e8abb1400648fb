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
        var ids = model.order
        let needle = filter.lowercased()
        if !needle.isEmpty {
            ids = ids.filter { model.searchKeys[$0]?.contains(needle) ?? false }
        }
        // Keys are computed once per download, not once per comparison: 100,000 rows sort fast.
        switch sort {
        case .added:
            return ids
        case .name:
            return sorted(ids) { model.searchKeys[$0] ?? "" }
        case .progress:
            return sorted(ids) { -fraction(model[$0]) }
        case .speed:
            return sorted(ids) { -(model.sample(for: $0)?.bytesPerSecond ?? 0) }
        case .state:
            return sorted(ids) { rank(model[$0]?.state) }
        }
    }

    /// A stable sort by a precomputed key (ties keep the list order).
    private static func sorted<K: Comparable>(_ ids: [DownloadID], by key: (DownloadID) -> K) -> [DownloadID] {
        let keyed = ids.enumerated().map { (key: key($0.element), index: $0.offset, id: $0.element) }
        return keyed.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map(\.id)
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
