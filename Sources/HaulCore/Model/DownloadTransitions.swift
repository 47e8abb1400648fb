import Foundation

/// The state changes a user can ask for. Each returns whether anything changed, so
/// repeating a command is harmless (idempotent) and callers know when to save.
extension Download {
    /// waiting/downloading → paused. A policy pause never overrides a user pause.
    @discardableResult
    public mutating func pause(_ cause: PauseCause) -> Bool {
        switch state {
        case .waiting, .downloading:
            state = .paused
            pauseCause = cause
            return true
        case .paused where cause == .user && pauseCause != .user:
            pauseCause = .user
            return true
        case .paused where cause.isNetworkHold && pauseCause?.isNetworkHold == true && pauseCause != cause:
            pauseCause = cause
            return true
        case .paused, .finished, .failed:
            return false
        }
    }

    /// paused → waiting, in its place in the list (which is the queue's order).
    @discardableResult
    public mutating func resume() -> Bool {
        guard state == .paused else { return false }
        requeue()
        return true
    }

    /// failed (or paused) → waiting, with the retry count cleared.
    @discardableResult
    public mutating func retry() -> Bool {
        guard state == .failed || state == .paused else { return false }
        retries = 0
        requeue()
        return true
    }

    /// Gives it a new address (`haul refresh`), keeping its bytes: the old one joins
    /// ``previousURLs``, and the new one's first answer decides whether they are kept (see
    /// ``linkUnchecked``). A failed or running download waits to start from the new link; a
    /// paused one stays paused. Not once finished, nor to the address it has.
    @discardableResult
    public mutating func changeLink(to newURL: String) -> Bool {
        guard state != .finished, newURL != url else { return false }
        previousURLs.append(url)
        url = newURL
        finalURL = nil
        retries = 0
        linkUnchecked = true
        if notice?.isHold != true { notice = nil }
        if state == .failed || state == .downloading {
            if failureReason == .cancelled { receivedBytes = 0 }
            requeue()
        }
        return true
    }

    /// Stops for good and forgets the partial data. Finished downloads are left alone.
    @discardableResult
    public mutating func cancel() -> Bool {
        guard state != .finished, !(state == .failed && failureReason == .cancelled) else { return false }
        state = .failed
        pauseCause = nil
        failureReason = .cancelled
        receivedBytes = 0
        return true
    }

    /// A pause for `cause` (a network hold, a full disk) ends: back to waiting in the same
    /// queue position. A user's pause is never ended this way.
    @discardableResult
    public mutating func resumeFromPolicy(_ cause: PauseCause) -> Bool {
        guard state == .paused, pauseCause == cause, cause != .user else { return false }
        if notice?.isHold == true { notice = nil }
        state = .waiting
        pauseCause = nil
        diskShortfall = nil
        return true
    }

    public mutating func fail(_ reason: FailureReason) {
        state = .failed
        pauseCause = nil
        failureReason = reason
    }

    public mutating func requeue() {
        state = .waiting
        pauseCause = nil
        failureReason = nil
        if notice?.isHold == true { notice = nil }
    }

    /// Whether a failed attempt's retry is still to come at `now` (its notice counts down).
    public func isWaitingToRetry(at now: Date) -> Bool {
        guard state == .downloading, case .retrying(_, let at, _, _)? = notice else { return false }
        return at.timeIntervalSince(now) > -1
    }
}
