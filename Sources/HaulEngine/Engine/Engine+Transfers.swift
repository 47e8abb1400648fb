import FoundationEssentials
import Glibc
import HaulCore

/// The engine's side of ``TransferReports``. Each call names the generation its run was started
/// with; a report from a run that was paused, cancelled or replaced is ignored.
extension Engine {
    func current(_ id: DownloadID, _ generation: UInt64) -> Download? {
        guard transfers.isCurrent(id, generation) else { return nil }
        return downloads[id]
    }

    /// Picks a free name for the file, based on `suggestion`; nil when the run is stale. The
    /// transfer journals the claim before it creates the `.part`.
    func transferClaimName(
        _ id: DownloadID, _ generation: UInt64, _ suggestion: String, total: Int64?, keepingPart: String? = nil
    ) -> String? {
        guard var download = current(id, generation) else { return nil }
        if let total { download.totalBytes = total }
        claimName(suggestion, for: &download, keepingPart: keepingPart)
        downloads[id] = download
        changed(download)
        return download.fileName
    }

    /// Sets `download.fileName` to a free name based on `suggestion`: one no other download has
    /// claimed and nothing on disk has, as a file or as a `.part`. `freeOnDisk` is a name the
    /// transfer found no file by and whose `.part` it creates exclusively (see
    /// ``TransferRunner``), so the engine does not wait on the file system for it (only for the
    /// names after it, when another download holds it).
    func claimName(
        _ suggestion: String, for download: inout Download, keepingPart: String? = nil, freeOnDisk: String? = nil
    ) {
        let id = download.id
        let directory = download.directory
        download.fileName = FileNaming.uniqueName(suggestion) { candidate in
            let path = Download.path(of: candidate, in: directory)
            let claimedBy = downloads.claimedPaths[path]
            if claimedBy != nil && claimedBy != id { return true }
            if candidate == freeOnDisk { return false }
            let part = Download.path(of: candidate, in: directory, suffix: ".part")
            return Self.somethingExists(at: path) || (part != keepingPart && Self.somethingExists(at: part))
        }
    }

    /// Whether no file by `name` is in `directory` (its `.part` is not looked at: a new name's
    /// `.part` is created exclusively, which tells the same for one lookup less).
    static func isFinalNameFree(_ name: String, in directory: String) -> Bool {
        !somethingExists(at: Download.path(of: name, in: directory))
    }

    /// Any entry at `path`, a dangling symlink included (`lstat`, so a link can never be written through).
    static func somethingExists(at path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The response is good and its body is about to be written: returns the file's name (claimed
    /// here when the download has none yet), nil when the run is stale.
    func transferBegan(_ id: DownloadID, _ generation: UInt64, _ info: ResponseInfo) -> String? {
        guard var download = current(id, generation) else { return nil }
        download.receivedBytes = info.receivedBytes
        download.totalBytes = info.totalBytes
        switch info.name {
        case .known(let name): download.fileName = name
        case .suggested(let suggestion): claimName(suggestion, for: &download, freeOnDisk: info.freeOnDisk)
        }
        download.etag = info.etag
        download.lastModified = info.lastModified
        if let resumable = info.resumable { download.resumable = resumable }
        download.finalURL = info.finalURL
        if let reason = info.startOver {
            download.segments = nil
            download.notice = .startedOver(reason)
            publish(.notice(id, .startedOver(reason)))
        }
        downloads[id] = download
        changed(download)
        // A name the download had, written again from its first byte (a start over, a server
        // that ignored the range): the validators of the bytes now written are on disk before
        // they are, so a resume after a crash asks for this version.
        if case .known = info.name, info.receivedBytes == 0 { journalNow([download]) }
        // Only an answer from the host asked shares its connection with the host's other downloads.
        let multiplexed =
            info.multiplexed && SharedHosts.origin(of: info.finalURL) == SharedHosts.origin(of: download.url)
        transfers.setLarge(id, !SharedHosts.isSmall(info.totalBytes))
        if sharedHosts.answered(download.url, multiplexed: multiplexed, size: info.totalBytes) { schedule() }
        return download.fileName
    }

    /// Records how far a running download has got and publishes it with its speed and ETA (and,
    /// for one in pieces, its connections and pieces); saves now and then.
    func transferProgress(_ id: DownloadID, _ generation: UInt64, _ progress: TransferProgress) {
        guard var download = current(id, generation) else { return }
        let active = progress.connections.flatMap { $0 > 0 ? $0 : nil }
        if progress.connections != nil, download.activeConnections != active {
            download.activeConnections = active
            download.receivedBytes = progress.received
            downloads[id] = download
            changed(download)
        }
        downloads.recordProgress(id, received: progress.received)
        let now = clock.now
        let remaining = download.totalBytes.map { $0 - progress.received }
        let speed = transfers.recordSpeed(id, received: progress.received, remaining: remaining, at: now)
        publish(
            .progress(
                ProgressSample(
                    id: id, receivedBytes: progress.received, totalBytes: download.totalBytes,
                    bytesPerSecond: speed.bytesPerSecond, etaSeconds: speed.eta, connections: progress.connections,
                    segments: progress.segments)))
        if now - persistence.lastSave >= configuration.progressSaveInterval { scheduleSave(after: .zero) }
    }

    /// A segmented download's map was made durable: the state file stores it from now on. Also
    /// taken from a run that was just stopped (a pause), whose last map is the one to resume from.
    func transferSegmentsSaved(_ id: DownloadID, _ generation: UInt64, name: String, _ segments: [Segment]) {
        guard transfers[id] == nil || transfers.isCurrent(id, generation), var download = downloads[id],
            download.state != .finished, download.fileName == name
        else { return }
        download.segments = segments
        downloads[id] = download
    }

    /// The transfer's mirrors changed (found, dropped, served bytes); a checksum or piece hashes
    /// a server or Metalink gave are kept when the user gave none.
    func transferSourcesChanged(
        _ id: DownloadID, _ generation: UInt64, _ mirrors: [DownloadSource], checksum: Checksum?,
        pieceHashes: PieceHashes?
    ) {
        guard var download = current(id, generation) else { return }
        download.request.sources = mirrors
        if download.checksum == nil, let checksum { download.checksum = checksum }
        if download.request.pieceHashes == nil, let pieceHashes { download.request.pieceHashes = pieceHashes }
        downloads[id] = download
        changed(download)
    }

    /// The download's URL served `metalink`: it becomes the document's first file, fetched from
    /// `url` (its first source) and its mirrors, and the other files are added after it in the
    /// same folder, each in the folders the document names. Returns the folder the first file
    /// goes in; nil when the run is stale.
    func transferFollowedMetalink(_ id: DownloadID, _ generation: UInt64, _ metalink: Metalink, url: String)
        -> String?
    {
        guard var download = current(id, generation), let first = metalink.files.first else { return nil }
        let folder = download.directory
        // The first file's own folders, when the user named it no file; made here, before the
        // journal records the download in them.
        if download.requestedName == nil, !first.folders.isEmpty {
            let inside = first.folders.reduce(folder, PathText.joined)
            if (try? DownloadDirectory.create(inside)) != nil { download.directory = inside }
        }
        download.previousURLs.append(download.url)
        download.url = url
        download.finalURL = nil
        download.requestedName = download.requestedName ?? first.name
        download.request.sources = Array(first.sources.dropFirst())
        if download.checksum == nil { download.checksum = first.checksum }
        download.request.pieceHashes = first.pieces
        // Headers and cookies were for the host the user named, not for the Metalink's URLs.
        download.headers = []
        downloads[id] = download
        changed(download)
        // The other files, added as `haul add` adds them, each noting where it came from.
        let others = metalink.files.dropFirst().compactMap { file -> DownloadRequest? in
            guard var request = file.request(into: folder) else { return nil }
            request.allowMetered = download.allowMetered
            request.connections = download.connections
            request.speedLimit = download.speedLimit
            return request
        }
        let cameFrom = download.previousURLs.last ?? download.url
        let added = (try? add(others, cameFrom: cameFrom)) ?? []
        for more in added {
            // A command that follows the Metalink's URL follows all of its files.
            if focus?.contains(id) == true { focus?.insert(more) }
            if let more = downloads[more] { changed(more) }
        }
        // On disk before the transfer creates the first file's `.part`: after a crash the download
        // would otherwise go on from the Metalink's URL into it, and the other files be unknown.
        journalNow([download] + added.compactMap { downloads[$0] })
        scheduleSave(after: configuration.transitionSaveDelay)
        schedule()
        return download.directory
    }

    /// The transfer emptied the `.part` to fetch the file from its first byte; `why`, when
    /// given, is told to the user.
    func transferStartedOver(_ id: DownloadID, _ generation: UInt64, _ why: StartOverReason?) {
        guard var download = current(id, generation) else { return }
        download.segments = nil
        download.receivedBytes = 0
        download.etag = nil
        download.lastModified = nil
        if let why {
            download.notice = .startedOver(why)
            publish(.notice(id, .startedOver(why)))
        }
        downloads[id] = download
        changed(download)
        // Before the transfer empties the `.part`: the map it had must not outlive its bytes.
        journalNow([download])
    }

    /// The new link's first answer was compared with the file on disk; `etag` and `lastModified`
    /// are what later requests check against.
    func transferCheckedLink(_ id: DownloadID, _ generation: UInt64, etag: String?, lastModified: String?) {
        guard var download = current(id, generation) else { return }
        download.linkUnchecked = false
        // Pieces resumed from the map go to the new link itself.
        if download.finalURL == nil { download.finalURL = download.url }
        download.etag = etag
        download.lastModified = lastModified
        downloads[id] = download
        changed(download)
    }

    func transferNotice(_ id: DownloadID, _ generation: UInt64, _ notice: Notice?) {
        guard var download = current(id, generation), notice != nil || download.notice != nil else { return }
        download.notice = notice
        downloads[id] = download
        if let notice { publish(.notice(id, notice)) }
        changed(download)
    }

    /// Counts a transient failure; returns the wait before the next attempt, or nil to give up.
    func transferWillRetry(_ id: DownloadID, _ generation: UInt64, _ failure: TransferFailure, madeProgress: Bool)
        -> Duration?
    {
        guard var download = current(id, generation) else { return nil }
        download.willRetry(after: failure.reason, madeProgress: madeProgress)
        if let part = download.partPath, let size = PartFile.size(at: part) {
            download.receivedBytes = download.receivedOnDisk(partSize: size)
        }
        let now = bandwidth.wallClock.now()
        let retryAfter = failure.retryAfter.flatMap { RetryPolicy.parseRetryAfter($0, now: now) }
        let policy = configuration.retryPolicy.allowing(tries: download.request.tries)
        let delay = policy.delay(
            beforeRetry: download.retries, retryAfter: retryAfter, jitter: Double.random(in: 0...1))
        if let delay {
            let notice = Notice.retrying(
                because: failure.reason, at: now.addingTimeInterval(delay.seconds), attempt: download.retries,
                of: policy.maxRetries)
            download.notice = notice
            publish(.notice(id, notice))
        }
        downloads[id] = download
        changed(download)
        return delay
    }

    func transferEnded(_ id: DownloadID, _ generation: UInt64, _ outcome: TransferOutcome) {
        guard var download = current(id, generation) else {
            // A run told to stop (a pause, the end of the run) that placed its file first: the
            // file is there under its name, so the download is finished, not fetched again.
            if case .finished(let fileName, let size) = outcome, transfers.isStopping(id, generation),
                var download = downloads[id],
                download.finish(fileName: fileName, size: size, at: bandwidth.wallClock.now().toTheMicrosecond)
            {
                downloads[id] = download
                changed(download)
            }
            return
        }
        transfers.remove(id)
        bandwidth.globalGate.setSharers(transfers.count)
        download.activeConnections = nil
        switch outcome {
        case .finished(let fileName, let size):
            download.finish(fileName: fileName, size: size, at: bandwidth.wallClock.now().toTheMicrosecond)
        case .failed(let failure) where failure.isDiskFull:
            // Not a failure: the download waits for room and resumes by itself.
            download.waitForRoom(failure.reason)
            if let part = download.partPath, let size = PartFile.size(at: part) {
                download.receivedBytes = download.receivedOnDisk(partSize: size)
            }
            watchDiskSpace()
        case .failed(let failure):
            download.fail(failure.reason)
            failedThisRun.insert(id)
        }
        downloads[id] = download
        changed(download)
        schedule()
        // Nothing runs now, so no burst of events follows that the pace would gather: what is
        // held goes out at once. `haul URL` waits for this event to return.
        if transfers.isEmpty { hub.deliverHeld() }
    }
}
