import FoundationEssentials

/// What happened to downloads while no UI was attached to the engine (a daemon running on
/// its own): haul's answer to `handleEventsForBackgroundURLSession`. The next UI to attach
/// takes the report and shows it.
///
/// One entry per download, describing its latest notable outcome; a download that becomes
/// active again loses its entry until it ends again.
public struct AwayReport: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        case finished
        case failed
        /// Paused by the metered-network policy.
        case metered
    }

    public struct Entry: Codable, Sendable, Equatable {
        public var id: DownloadID
        /// The display name when it happened (the download may be removed since).
        public var name: String
        public var outcome: Outcome
        /// Why it failed, for `.failed`.
        public var reason: String?
        public var at: Date
    }

    /// The most entries kept; the oldest go first.
    public static let capacity = 1000

    /// When recording began (the UI left, or the daemon started).
    public var since: Date
    public private(set) var entries: [Entry] = []

    public init(since: Date) {
        self.since = since
    }

    public var isEmpty: Bool { entries.isEmpty }

    public func count(_ outcome: Outcome) -> Int { entries.reduce(0) { $0 + ($1.outcome == outcome ? 1 : 0) } }

    /// Notes the download's new state; returns whether the report changed.
    @discardableResult
    public mutating func record(_ download: Download, at date: Date) -> Bool {
        let outcome: Outcome?
        switch download.state {
        case .finished: outcome = .finished
        case .failed: outcome = .failed
        case .paused where download.pauseCause == .metered: outcome = .metered
        case .paused, .waiting, .downloading: outcome = nil
        }
        let existing = entries.firstIndex { $0.id == download.id }
        guard let outcome else {
            guard let existing else { return false }
            entries.remove(at: existing)
            return true
        }
        if let existing, entries[existing].outcome == outcome { return false }
        if let existing { entries.remove(at: existing) }
        let reason = outcome == .failed ? download.reason : nil
        entries.append(Entry(id: download.id, name: download.displayName, outcome: outcome, reason: reason, at: date))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        return true
    }
}
