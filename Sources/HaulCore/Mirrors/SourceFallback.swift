/// Which source a run asks when the server asked did not answer: after the download's own URL,
/// each usable source in turn, so one dead server never fails a download that names others. A
/// round ends when every source was asked; the sources that only failed are then usable again,
/// and the next attempt (which counts against the download's retries) starts another round.
public struct SourceFallback: Sendable, Equatable {
    /// The source being asked; nil while it is the download's own URL.
    public private(set) var current: DownloadSource?
    /// The sources this round marked as failed, to be usable again in the next.
    private var failedThisRound: [String] = []
    /// The failure of the download's own URL this round, and the last one of the round that
    /// another attempt may help with.
    private var ownFailure: TransferFailure?
    private var lastTransient: TransferFailure?
    /// What the last round that every source failed ends the attempt with: the last failure
    /// another attempt may help with (the download is tried again), else the download's own
    /// URL's (what the user asked for failed for good: a 404 of an expired link is that link's).
    public private(set) var roundFailure: TransferFailure?

    public init() {}

    /// After the current source failed, or (`problem`) was found to serve another file: marks
    /// it so in `sources` (the download's own URL, `primary`, is not among them) and returns the
    /// next usable source, in priority order. Nil when every source was asked: the sources that
    /// only failed this round are then usable again, and the download's own URL is current.
    public mutating func next(
        after problem: SourceProblem, primary: String, sources: inout [DownloadSource]
    ) -> DownloadSource? {
        if let failed = current, let index = sources.firstIndex(where: { $0.url == failed.url }) {
            sources[index].problem = problem
            if case .failed = problem { failedThisRound.append(failed.url) }
        }
        if let next = DownloadSource.ordered(sources, excluding: primary).first(where: \.isUsable) {
            current = next
            return next
        }
        for index in sources.indices where failedThisRound.contains(sources[index].url) {
            sources[index].problem = nil
        }
        failedThisRound = []
        current = nil
        roundFailure = lastTransient ?? ownFailure
        (ownFailure, lastTransient) = (nil, nil)
        return nil
    }

    /// Notes how the source being asked failed, before ``next(after:primary:sources:)``.
    public mutating func failed(_ failure: TransferFailure) {
        if current == nil { ownFailure = failure }
        if failure.isTransient { lastTransient = failure }
    }
}

extension FailureReason {
    /// Whether another server may answer where this one failed: the server's own failures, not
    /// the disk's, the user's or the request's.
    public var mayServeElsewhere: Bool {
        switch self {
        case .status, .noContent, .redirectWithoutLocation, .invalidRedirect, .redirectToScheme, .tooManyRedirects,
            .startedOverTooOften, .closedEarly, .bodyCutShort, .serverClosedConnection, .stalled, .cannotConnect,
            .connectionFailed, .rangesRefused, .wrongRange, .malformedResponse, .tls:
            return true
        case .completeWithoutFile, .requestHeaderRefused, .diskFull, .checksumMismatch, .file, .cancelled, .other:
            return false
        }
    }
}
