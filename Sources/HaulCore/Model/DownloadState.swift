/// Where a download is in its life.
public enum DownloadState: String, Codable, Sendable, CaseIterable {
    /// Queued; starts when a transfer slot is free.
    case waiting
    /// A transfer is running.
    case downloading
    /// Stopped on purpose; see ``PauseCause``.
    case paused
    /// The file is complete at its final path.
    case finished
    /// Stopped for good until retried; see ``Download/failureReason``.
    case failed

    /// Whether the download still has work to do without anybody acting.
    public var isActive: Bool { self == .waiting || self == .downloading }
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
