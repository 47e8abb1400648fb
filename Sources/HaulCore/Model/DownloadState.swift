import FoundationEssentials

/// Where a download is in its life, with the cause where one belongs: a pause says who paused
/// it, a failure why it failed. Only the transitions (`DownloadTransitions.swift`) change it.
public enum DownloadState: Sendable, Hashable {
    /// Queued; starts when a transfer slot is free.
    case waiting
    /// A transfer is running.
    case downloading
    /// Stopped on purpose, by the user or a policy.
    case paused(by: PauseCause)
    /// The file is complete at its final path.
    case finished
    /// Stopped for good until retried (``ReasonText`` words the reason).
    case failed(FailureReason)

    /// The state without its cause: what lists, filters and the state file's `state` key show.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case waiting, downloading, paused, finished, failed
    }

    public var kind: Kind {
        switch self {
        case .waiting: .waiting
        case .downloading: .downloading
        case .paused: .paused
        case .finished: .finished
        case .failed: .failed
        }
    }

    /// Who paused it, while paused.
    public var pauseCause: PauseCause? {
        if case .paused(let cause) = self { return cause }
        return nil
    }

    /// Why it failed, once failed.
    public var failureReason: FailureReason? {
        if case .failed(let reason) = self { return reason }
        return nil
    }

    /// Whether the download still has work to do without anybody acting.
    public var isActive: Bool { self == .waiting || self == .downloading }

    public var isPaused: Bool { kind == .paused }
    public var isFailed: Bool { kind == .failed }

    /// A short human reason for the state, or nil when there is nothing to say: a hold says until
    /// when, a full disk how much room is missing, from what the cause carries.
    public var reason: String? {
        switch self {
        case .paused(let cause):
            switch cause {
            case .user: return "paused by user"
            case .metered: return "waiting for unmetered network"
            case .diskFull(let shortfall): return ReasonText.failure(.diskFull(shortfall: shortfall))
            case .budget(let use?):
                return "metered data budget used: \(Formatting.bytes(use.used)) of \(Formatting.bytes(use.budget)) "
                    + use.period.current
            case .budget(nil): return "metered data budget used up"
            case .schedule(let minute?): return "held by the speed limit's schedule until \(DailyWindow.clock(minute))"
            case .schedule(nil): return "held by the speed limit's schedule"
            }
        case .failed(let reason): return ReasonText.failure(reason)
        case .waiting, .downloading, .finished: return nil
        }
    }

    /// Failed as an expired link fails (401, 403, 404, 410): a new link (`haul refresh`) may
    /// save its bytes.
    public var mayNeedNewLink: Bool {
        guard case .failed(.status(let status)) = self else { return false }
        return [401, 403, 404, 410].contains(status)
    }

    /// Paused by a policy (a network hold, a full disk): it resumes by itself.
    public var isHeld: Bool {
        guard case .paused(let cause) = self else { return false }
        return cause.isNetworkHold || cause.kind == .diskFull
    }

    /// Whether a failed attempt's retry is still to come at `now` (the `notice` counts down).
    public func isWaitingToRetry(notice: Notice?, at now: Date) -> Bool {
        guard self == .downloading, case .retrying(_, let at, _, _)? = notice else { return false }
        return at.timeIntervalSince(now) > -1
    }

    /// Whether its transfer waits for the machine's network to come back (the `notice` says so).
    public func isWaitingForNetwork(notice: Notice?) -> Bool {
        guard self == .downloading, case .waitingForNetwork? = notice else { return false }
        return true
    }

    /// The state as the state file stores it, in keys that may come in any order (`state`,
    /// `pauseCause` and what the pause carries: `diskShortfall`, `budgetUse`, `heldUntil`;
    /// `failureReason`); ``resolved`` makes a state of them.
    public struct Parts: Sendable, Equatable {
        public var kind: Kind?
        public var pauseCause: PauseCause.Kind?
        public var diskShortfall: Int64?
        public var budgetUse: BudgetUse?
        public var heldUntil: Int?
        public var failureReason: FailureReason?
        /// A hold's words as an older haul kept them, in the download's notice.
        public var legacyHold: Notice?

        public init(kind: Kind? = nil, pauseCause: PauseCause.Kind? = nil, failureReason: FailureReason? = nil) {
            self.kind = kind
            self.pauseCause = pauseCause
            self.failureReason = failureReason
        }

        /// What the parts mean. The kind decides and a cause that does not belong to it is
        /// dropped; a pause without a cause is the user's (as older files meant it), a failure
        /// without a reason is an unknown one.
        public var resolved: DownloadState {
            switch kind ?? .waiting {
            case .waiting: .waiting
            case .downloading: .downloading
            case .paused: .paused(by: cause)
            case .finished: .finished
            case .failed: .failed(failureReason ?? .other("failed"))
            }
        }

        private var cause: PauseCause {
            switch pauseCause ?? .user {
            case .user: return .user
            case .metered: return .metered
            case .diskFull: return .diskFull(shortfall: diskShortfall)
            case .budget:
                if let budgetUse { return .budget(budgetUse) }
                guard case .budgetUsed(let used, let budget, let period)? = legacyHold else { return .budget(nil) }
                return .budget(BudgetUse(used: used, budget: budget, period: period))
            case .schedule:
                if let heldUntil { return .schedule(until: heldUntil) }
                guard case .heldUntil(let minute)? = legacyHold else { return .schedule(until: nil) }
                return .schedule(until: minute)
            }
        }
    }
}

/// Why a download is paused, with what is known of it.
public enum PauseCause: Sendable, Hashable {
    /// The user paused it.
    case user
    /// The metered-network policy paused it; it resumes by itself.
    case metered
    /// The disk filled up; it resumes by itself when there is room. `shortfall`: how many more
    /// bytes the rest of the file needs, when known.
    case diskFull(shortfall: Int64?)
    /// The metered data budget is used up; it resumes at the next period, on an unmetered
    /// network, or when the budget is raised. With how much of it was used, when known (out of
    /// line, so a state stays as small as it was: 100,000 are held in memory at once).
    indirect case budget(BudgetUse?)
    /// The speed limit's schedule holds downloads now (a limit of 0); it resumes when the
    /// window ends, at `until` minutes after midnight when known.
    case schedule(until: Int?)

    /// The cause without what is known of it: what the state file's `pauseCause` key, policies
    /// and counts go by.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case user, metered, diskFull, budget, schedule
    }

    public var kind: Kind {
        switch self {
        case .user: .user
        case .metered: .metered
        case .diskFull: .diskFull
        case .budget: .budget
        case .schedule: .schedule
        }
    }

    /// A cause of `kind` with nothing known of it yet.
    public init(_ kind: Kind) {
        switch kind {
        case .user: self = .user
        case .metered: self = .metered
        case .diskFull: self = .diskFull(shortfall: nil)
        case .budget: self = .budget(nil)
        case .schedule: self = .schedule(until: nil)
        }
    }

    /// Set and lifted by the network policies (``HoldPolicy``), which may also change one of
    /// these causes into another.
    public var isNetworkHold: Bool { kind.isNetworkHold }
}

extension PauseCause.Kind {
    /// A cause the network policies set and lift.
    public var isNetworkHold: Bool { self == .metered || self == .budget || self == .schedule }
}

/// How much of the metered data budget was used when a download was held for it.
public struct BudgetUse: Codable, Sendable, Hashable {
    public var used: Int64
    public var budget: Int64
    public var period: BudgetPeriod

    public init(used: Int64, budget: Int64, period: BudgetPeriod) {
        self.used = used
        self.budget = budget
        self.period = period
    }
}
