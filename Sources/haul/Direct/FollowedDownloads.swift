import HaulCore

/// The downloads one `haul URL…` asked for, followed through the engine's events until each is
/// done: finished, failed, paused by a person, or taken off the list. A download a policy holds
/// (a metered network, a full disk) is waited for, as `haul run` waits for it.
struct FollowedDownloads: Sendable {
    private(set) var states: [DownloadID: DownloadState?]

    init(_ ids: [DownloadID]) {
        states = Dictionary(uniqueKeysWithValues: ids.map { ($0, nil) })
    }

    var ids: Set<DownloadID> { Set(states.keys) }

    /// Whether `event` is about one of these downloads, or about the engine as a whole.
    func concerns(_ event: EngineEvent) -> Bool {
        switch event {
        case .removedMany(let ids): return ids.contains { states.keys.contains($0) }
        default: return event.downloadID.map { states.keys.contains($0) } ?? true
        }
    }

    /// Notes what `event` says of these downloads.
    mutating func apply(_ event: EngineEvent) {
        switch event {
        case .added(let d), .updated(let d):
            if states.keys.contains(d.id) { states[d.id] = d.state }
        case .removed(let id):
            if states.keys.contains(id) { states[id] = .finished }
        case .removedMany(let ids):
            for id in ids where states.keys.contains(id) { states[id] = .finished }
        case .progress, .notice, .network, .moved:
            break
        }
    }

    /// Notes the state of each of these downloads in `downloads` (a snapshot).
    mutating func apply(_ downloads: [Download]) {
        for d in downloads where states.keys.contains(d.id) { states[d.id] = d.state }
    }

    /// Every download is done with: nothing of these is left to fetch here.
    var allDone: Bool {
        states.values.allSatisfy { state in
            guard let state else { return false }
            switch state {
            case .finished, .failed: return true
            case .paused(let cause): return cause == .user
            case .waiting, .downloading: return false
            }
        }
    }

    /// The downloads that failed.
    var failed: Set<DownloadID> { Set(states.compactMap { $0.value?.isFailed == true ? $0.key : nil }) }
}
