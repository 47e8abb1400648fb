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

    /// A short human reason for the state, or nil when there is nothing to say. A hold's notice
    /// says until when; a full disk how much room is missing.
    public func reason(notice: Notice?, diskShortfall: Int64?) -> String? {
        switch self {
        case .paused(let cause):
            switch cause {
            case .user: return "paused by user"
            case .metered: return "waiting for unmetered network"
            case .diskFull: return ReasonText.failure(.diskFull(shortfall: diskShortfall))
            case .budget, .schedule:
                if let notice, notice.isHold { return ReasonText.notice(notice, now: nil) }
                return cause == .budget ? "metered data budget used up" : "held by the speed limit's schedule"
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
        return cause.isNetworkHold || cause == .diskFull
    }

    /// Whether a failed attempt's retry is still to come at `now` (the `notice` counts down).
    public func isWaitingToRetry(notice: Notice?, at now: Date) -> Bool {
        guard self == .downloading, case .retrying(_, let at, _, _)? = notice else { return false }
        return at.timeIntervalSince(now) > -1
    }

    /// The state as the state file stores it, in three keys (`state`, `pauseCause`,
    /// `failureReason`) that may come in any order; ``resolved`` makes a state of them.
    public struct Parts: Sendable, Equatable {
        public var kind: Kind?
        public var pauseCause: PauseCause?
        public var failureReason: FailureReason?

        public init(kind: Kind? = nil, pauseCause: PauseCause? = nil, failureReason: FailureReason? = nil) {
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
            case .paused: .paused(by: pauseCause ?? .user)
            case .finished: .finished
            case .failed: .failed(failureReason ?? .other("failed"))
            }
        }
    }
}

/// Why a download is paused.
public enum PauseCause: String, Codable, Sendable {
    /// The user paused it.
    case user
    /// The metered-network policy paused it; it resumes by itself.
    case metered
    /// The disk filled up; it resumes by itself when there is room.
    case diskFull
    /// The metered data budget is used up; it resumes at the next period, on an unmetered
    /// network, or when the budget is raised.
    case budget
    /// The speed limit's schedule holds downloads now (a limit of 0); it resumes when the
    /// window ends.
    case schedule

    /// Set and lifted by the network policies (``HoldPolicy``), which may also change one of
    /// these causes into another.
    public var isNetworkHold: Bool { self == .metered || self == .budget || self == .schedule }
}
