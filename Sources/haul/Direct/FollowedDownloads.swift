import HaulCore

/// The downloads one `haul URL…` asked for, followed through the engine's events until each is
/// done: finished, failed, paused by a person, or taken off the list. A download a policy holds
/// (a metered network, a full disk) is waited for, as `haul run` waits for it.
///
/// A download added because a followed one's URL served a Metalink (its other files) is followed
/// too: it names that URL as its first previous one, in the same folder or one below it.
struct FollowedDownloads: Sendable {
    private(set) var states: [DownloadID: DownloadState?]
    /// How many of `states` are not done: ``allDone`` is asked after every burst of events.
    private var notDone: Int
    /// Folder and URL of each address a followed download was at before (``EarlierRuns/key(_:_:)``).
    private var origins: Set<String> = []

    init(_ ids: [DownloadID]) {
        states = Dictionary(ids.map { ($0, nil) }) { first, _ in first }
        notDone = states.count
    }

    /// Notes where a followed download has been, and takes in `d` when it came from one of those
    /// addresses.
    private mutating func learn(_ d: Download) {
        if states[d.id] == nil, let first = d.previousURLs.first,
            PathText.enclosingFolders(of: d.directory).contains(where: { origins.contains(EarlierRuns.key($0, first)) })
        {
            states[d.id] = .some(nil)
            notDone += 1
        }
        guard states[d.id] != nil else { return }
        // Where it is now too: its URL may yet serve a Metalink, whose files name it.
        for url in d.previousURLs + [d.url] { origins.insert(EarlierRuns.key(d.directory, url)) }
    }

    /// Records `state` for `id` when it is one of these downloads.
    private mutating func record(_ id: DownloadID, _ state: DownloadState) {
        guard let old = states[id] else { return }
        notDone += (Self.isDone(old) ? 1 : 0) - (Self.isDone(state) ? 1 : 0)
        states[id] = state
    }

    /// Done with: finished, failed, paused by a person (a policy's hold is waited for).
    private static func isDone(_ state: DownloadState?) -> Bool {
        guard let state else { return false }
        switch state {
        case .finished, .failed: return true
        case .paused(let cause): return cause == .user
        case .waiting, .downloading: return false
        }
    }

    var ids: Set<DownloadID> { Set(states.keys) }

    /// Notes what `event` says of these downloads and whether it concerns them; events must be
    /// taken in order, as one may bring a download in that the next ones are about.
    mutating func take(_ event: EngineEvent) -> Bool {
        switch event {
        case .added(let d), .updated(let d): learn(d)
        default: break
        }
        guard concerns(event) else { return false }
        apply(event)
        return true
    }

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
            record(d.id, d.state)
        case .removed(let id):
            record(id, .finished)
        case .removedMany(let ids):
            for id in ids { record(id, .finished) }
        case .progress, .notice, .network, .moved:
            break
        }
    }

    /// Notes the state of each of these downloads in `downloads` (a snapshot).
    mutating func apply(_ downloads: [Download]) {
        for d in downloads {
            learn(d)
            record(d.id, d.state)
        }
    }

    /// Every download is done with: nothing of these is left to fetch here.
    var allDone: Bool { notDone == 0 }

    /// The states of `downloads` as the events since gave them.
    func latestStates(of downloads: [Download]) -> [DownloadState] {
        downloads.map { (states[$0.id] ?? nil) ?? $0.state }
    }

    /// The downloads that failed.
    var failed: Set<DownloadID> { Set(states.compactMap { $0.value?.isFailed == true ? $0.key : nil }) }
}
