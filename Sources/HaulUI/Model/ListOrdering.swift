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
            ids = ids.filter { model[$0].map { TerminalText.sanitize($0.displayName).lowercased().contains(needle) } ?? false }
        }
        switch sort {
        case .added:
            return ids
        case .name:
            return ids.sorted { key(model[$0]?.displayName) < key(model[$1]?.displayName) }
        case .progress:
            return ids.sorted { fraction(model[$0]) > fraction(model[$1]) }
        case .speed:
            return ids.sorted { (model.sample(for: $0)?.bytesPerSecond ?? 0) > (model.sample(for: $1)?.bytesPerSecond ?? 0) }
        case .state:
            return ids.sorted { rank(model[$0]?.state) < rank(model[$1]?.state) }
        }
    }

    private static func key(_ name: String?) -> String { (name ?? "").lowercased() }

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
