/// What the network policies hold back at a moment.
public struct HoldConditions: Sendable, Equatable {
    /// The network is treated as metered.
    public var metered: Bool
    /// The metered data budget of this period is used up.
    public var budgetUsedUp: Bool
    /// The speed limit in force is 0.
    public var scheduleHolds: Bool

    public init(metered: Bool, budgetUsedUp: Bool = false, scheduleHolds: Bool = false) {
        self.metered = metered
        self.budgetUsedUp = budgetUsedUp
        self.scheduleHolds = scheduleHolds
    }
}

/// Decides which downloads the network policies pause and resume. Pure.
///
/// A speed limit of 0 holds every download. On a metered network only downloads with an
/// allowance run (the rest wait for an unmetered network), and those only while the data budget
/// lasts. What a policy paused resumes by itself when the policy lets it; a user's pause, or one
/// for a full disk, is never undone here.
public enum HoldPolicy {
    public struct Hold: Equatable, Sendable {
        public var id: DownloadID
        /// Which hold: the engine adds what it knows of it (the budget used, the window's end).
        public var cause: PauseCause.Kind
    }

    public struct Decision: Equatable, Sendable {
        /// Downloads to pause, or whose hold now has another cause.
        public var pause: [Hold] = []
        public var resume: [DownloadID] = []
    }

    /// Why `download` must not run under `conditions`, or nil when it may.
    public static func cause(for download: Download, _ conditions: HoldConditions) -> PauseCause.Kind? {
        if conditions.scheduleHolds { return .schedule }
        guard conditions.metered else { return nil }
        if !download.allowMetered { return .metered }
        return conditions.budgetUsedUp ? .budget : nil
    }

    public static func decide(_ downloads: [Download], _ conditions: HoldConditions) -> Decision {
        decide(ChunkedArray(downloads), conditions)
    }

    /// Takes the engine's own storage, not any collection: unspecialised across modules, a generic
    /// loop would copy every download; reading the fields in place copies nothing.
    public static func decide(_ downloads: ChunkedArray<Download>, _ conditions: HoldConditions) -> Decision {
        var decision = Decision()
        for i in downloads.indices {
            // By kind and cause: a `switch` over the state with a `where` on the download crashes
            // the 6.3 compiler's optimizer (CopyPropagation) in release builds.
            let state = downloads[i].state
            if state.isActive {
                if let cause = cause(for: downloads[i], conditions) {
                    decision.pause.append(Hold(id: downloads[i].id, cause: cause))
                }
            } else if let held = state.pauseCause, held.isNetworkHold {
                if let cause = cause(for: downloads[i], conditions) {
                    if cause != held.kind { decision.pause.append(Hold(id: downloads[i].id, cause: cause)) }
                } else {
                    decision.resume.append(downloads[i].id)
                }
            }
        }
        return decision
    }
}
