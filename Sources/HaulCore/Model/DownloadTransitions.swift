import FoundationEssentials

/// Every change of a download's state. Each returns whether anything changed, so repeating a
/// command is harmless (idempotent) and callers know when to save; nothing else sets ``state``.
extension Download {
    /// waiting/downloading → paused. A policy pause never overrides a user pause.
    @discardableResult
    public mutating func pause(_ cause: PauseCause) -> Bool {
        switch state {
        case .waiting, .downloading:
            state = .paused(by: cause)
            return true
        case .paused(let current) where cause == .user && current != .user:
            state = .paused(by: .user)
            return true
        case .paused(let current) where cause.isNetworkHold && current.isNetworkHold && current.kind != cause.kind:
            state = .paused(by: cause)
            return true
        case .paused, .finished, .failed:
            return false
        }
    }

    /// paused → waiting, in its place in the list (which is the queue's order).
    @discardableResult
    public mutating func resume() -> Bool {
        guard state.isPaused else { return false }
        requeue()
        return true
    }

    /// failed (or paused) → waiting, with the retry count cleared.
    @discardableResult
    public mutating func retry() -> Bool {
        guard state.isFailed || state.isPaused else { return false }
        retries = 0
        requeue()
        return true
    }

    /// finished → waiting, as if new: its file is gone (the caller checks), and the name it is
    /// given again is claimed afresh from the one asked for or the server's. Not a torrent,
    /// whose files are its session's.
    @discardableResult
    public mutating func fetchAgain() -> Bool {
        guard state == .finished, !isTorrent else { return false }
        fileName = nil
        receivedBytes = 0
        finishedAt = nil
        etag = nil
        lastModified = nil
        finalURL = nil
        notice = nil
        retries = 0
        requeue()
        return true
    }

    /// waiting → downloading: a transfer starts.
    @discardableResult
    public mutating func start() -> Bool {
        guard state == .waiting else { return false }
        state = .downloading
        notice = nil
        return true
    }

    /// downloading → waiting: its transfer stopped without an outcome (the engine shut down, or
    /// a restart found it running), so it starts again from its `.part` in its place.
    @discardableResult
    public mutating func stopRunning() -> Bool {
        guard state == .downloading else { return false }
        state = .waiting
        activeConnections = nil
        return true
    }

    /// → finished: the file is complete at its final name. From any state but finished: a file
    /// found placed after a crash finishes a download that was only waiting.
    @discardableResult
    public mutating func finish(fileName: String, size: Int64, at date: Date) -> Bool {
        guard state != .finished else { return false }
        state = .finished
        self.fileName = fileName
        receivedBytes = size
        totalBytes = size
        finishedAt = finishedAt ?? date
        retries = 0
        segments = nil
        activeConnections = nil
        return true
    }

    /// Gives it a new address (`haul refresh`), keeping its bytes: the old one joins
    /// ``previousURLs``, and the new one's first answer decides whether they are kept (see
    /// ``linkUnchecked``). A failed or running download waits to start from the new link; a
    /// paused one stays paused. Not once finished, nor to the address it has, nor for a torrent
    /// or to a magnet link: a torrent is named by its info hash, not fetched from a link.
    @discardableResult
    public mutating func changeLink(to newURL: String) -> Bool {
        guard state != .finished, newURL != url, !isTorrent, !MagnetLink.isMagnet(newURL) else { return false }
        previousURLs.append(url)
        url = newURL
        finalURL = nil
        retries = 0
        linkUnchecked = true
        notice = nil
        if state.isFailed || state == .downloading {
            if state.failureReason == .cancelled { receivedBytes = 0 }
            requeue()
        }
        return true
    }

    /// Takes the options of `newRequest`, a request for the same URL into the same folder (`haul
    /// URL` run again with other options), as wget takes a new command line: its headers,
    /// proxy, limits, connections, mirrors and metered allowance, and a checksum if it has one.
    /// Its id, name, bytes and place in the list stay, and so do its checksum and piece hashes
    /// when the request has none (a server may have given them) and what each source showed (a
    /// mirror that sent other bytes stays dropped); sources a server or a Metalink named stay
    /// too, unless the request says not to use servers' mirrors. A running download waits to
    /// start again with them. Not once finished, not a torrent (its files and peers live in the
    /// session), and not when nothing would change.
    @discardableResult
    public mutating func renew(with newRequest: DownloadRequest) -> Bool {
        guard state != .finished, !isTorrent, !newRequest.isTorrent, newRequest.url == url,
            newRequest.directory == directory
        else { return false }
        var renewed = newRequest
        // A name asked for now is the file's (the engine renames its `.part`); none keeps the one it has.
        renewed.requestedName = newRequest.requestedName ?? request.requestedName
        renewed.paused = false
        renewed.login = nil
        // A digest a server gave (or one given before) still checks the same file.
        if renewed.checksum == nil { renewed.checksum = request.checksum }
        if renewed.pieceHashes == nil { renewed.pieceHashes = request.pieceHashes }
        let known = Dictionary(request.sources.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
        let named = renewed.sources.map { source in known[source.url] ?? source }
        let learned = request.sources.filter { source in
            source.origin == .metalink || (source.origin == .link && !renewed.ignoresMirrorHeaders)
        }
        renewed.sources = DownloadSource.ordered(named + learned, excluding: url)
        // The same sources in another order are no change: the engine adds learned ones as found.
        if Set(renewed.sources) == Set(request.sources) { renewed.sources = request.sources }
        guard renewed != request else { return false }
        request = renewed
        if state == .downloading { requeue() }
        return true
    }

    /// Stops for good and forgets the partial data. Finished downloads are left alone.
    @discardableResult
    public mutating func cancel() -> Bool {
        guard state != .finished, state != .failed(.cancelled) else { return false }
        state = .failed(.cancelled)
        receivedBytes = 0
        return true
    }

    /// A pause for `cause` (a network hold, a full disk) ends: back to waiting in the same
    /// queue position. A user's pause is never ended this way.
    @discardableResult
    public mutating func resumeFromPolicy(_ cause: PauseCause.Kind) -> Bool {
        guard state.pauseCause?.kind == cause, cause != .user else { return false }
        state = .waiting
        return true
    }

    /// → failed for `reason`, from any state but finished; the reason is kept as the last error.
    @discardableResult
    public mutating func fail(_ reason: FailureReason) -> Bool {
        guard state != .finished, state != .failed(reason) else { return false }
        state = .failed(reason)
        if reason != .cancelled { lastError = reason }
        return true
    }

    /// A failed attempt will be tried again: the failure is kept as the last error, the attempt
    /// counted (from one again when the attempt had made progress), and `notice` says when.
    public mutating func willRetry(after reason: FailureReason, madeProgress: Bool) {
        if madeProgress { retries = 0 }
        retries += 1
        lastError = reason
    }

    /// downloading/waiting → paused for a full disk (`reason`, which says how much room is
    /// missing, and the pause keeps): it resumes by itself when there is room.
    @discardableResult
    public mutating func waitForRoom(_ reason: FailureReason) -> Bool {
        lastError = reason
        guard case .diskFull(let shortfall) = reason else { return pause(.diskFull(shortfall: nil)) }
        return pause(.diskFull(shortfall: shortfall))
    }

    /// While paused for a full disk, a new look at the disk: `shortfall` more bytes are needed.
    @discardableResult
    public mutating func stillShortOfRoom(by shortfall: Int64) -> Bool {
        guard case .paused(.diskFull(let known)) = state, known != shortfall else { return false }
        state = .paused(by: .diskFull(shortfall: shortfall))
        return true
    }

    /// → waiting, keeping its place in the queue.
    public mutating func requeue() {
        state = .waiting
    }

    /// Whether a failed attempt's retry is still to come at `now` (its notice counts down).
    public func isWaitingToRetry(at now: Date) -> Bool { state.isWaitingToRetry(notice: notice, at: now) }

    /// Whether its transfer waits for the machine's network to come back.
    public var isWaitingForNetwork: Bool { state.isWaitingForNetwork(notice: notice) }
}
