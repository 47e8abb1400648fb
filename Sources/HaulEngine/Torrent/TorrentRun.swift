import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a torrent, from the session's events to the engine's reports: progress and the
/// swarm's numbers, the name once a magnet's metadata arrives, notices for bad pieces and peers,
/// and the end.
struct TorrentRun {
    let transfer: TorrentTransfer
    var name: String?
    var facts: TorrentFacts
    var fileCount: Int?
    /// Where hash failures go for the web seeds' feeder to blame the seed that sent the piece.
    let refusals: WebSeedFeeder.Refusals
    /// Bytes of the selected files: the download's size (libtorrent counts whole pieces, which
    /// overlap the files left out).
    var wanted: Int64 = 0
    /// libtorrent's count of wanted bytes when `wanted` was last worked out: a new choice of files changes it.
    private var wantedCheckedAt: Int64?
    /// The selected files' bytes on disk at the last status.
    private var lastReceived: Int64 = 0
    /// What libtorrent had counted up and down at the last status, for the metered budget.
    private var counted: (down: Int64, up: Int64)?
    private var uploadedBefore: Int64

    init(
        transfer: TorrentTransfer, name: String?, facts: TorrentFacts, fileCount: Int?, refusals: WebSeedFeeder.Refusals
    ) {
        self.transfer = transfer
        self.refusals = refusals
        self.name = name
        self.facts = facts
        self.fileCount = fileCount
        self.uploadedBefore = facts.uploaded
    }

    static func infoHash(_ download: Download) -> String {
        download.torrent?.infoHash ?? (try? TorrentMetadata(magnet: download.url))?.infoHash ?? ""
    }

    private var reports: RunReports { transfer.start.reports }
    private var id: DownloadID { transfer.start.download.id }

    /// Follows the torrent until it is complete (true) or fails or is stopped (false).
    mutating func follow(_ events: AsyncStream<TorrentEvent>) async -> Bool {
        for await event in events {
            switch event {
            case .status(let status):
                await report(status)
                if name != nil, status.hasMetadata, status.wanted > 0, status.wantedDone == status.wanted,
                    status.phase == .finished || status.phase == .seeding, await isComplete()
                {
                    return await finish()
                }
            case .metadata:
                guard await metadataArrived() else { return false }
            case .finished:
                // Before its files are named a magnet wants nothing, which libtorrent calls finished.
                if await isComplete() { return await finish() }
            case .hashFailed(let piece):
                refusals.record(piece)
                await reports.notice(.text("piece \(piece) failed its hash check and is fetched again"))
            case .peerBanned(let address):
                await reports.notice(
                    .text("peer \(TerminalText.sanitize(address)) sent data that failed hash checks and was cut off"))
            case .failed(let message, let diskFull):
                await transfer.session.remove(id)
                if diskFull {
                    // Paused until there is room for the rest, as a download over HTTP is.
                    let rest = restToWrite
                    let shortfall = DiskSpace.shortfall(writing: rest, into: transfer.start.download.directory)
                    await reports.ended(.failed(TransferFailure(.diskFull(shortfall: shortfall ?? rest))))
                    return false
                }
                await reports.ended(
                    .failed(TransferFailure(.file("the torrent's files: \(TerminalText.sanitize(message))"))))
                return false
            case .trackerFailed(let url, let message, let refused):
                await reports.notice(.text(Self.trackerTrouble(url: url, message: message, refused: refused)))
            case .resumeData(let bytes):
                _ = transfer.store.keepResumeData(bytes, infoHash: facts.infoHash)
            case .trackerReplied, .resumeDataFailed:
                continue
            }
        }
        return false
    }

    /// What a tracker's trouble is told as: its own words when it refused the announce, else why
    /// it could not be asked (libtorrent's words for a refused connection, a time-out, a bad answer).
    static func trackerTrouble(url: String, message: String, refused: Bool) -> String {
        let (url, message) = (TerminalText.sanitize(url), TerminalText.sanitize(message))
        return refused ? "tracker \(url) refused: \(message)" : "tracker \(url) could not be asked: \(message)"
    }

    /// A magnet's metadata: the root gets a free, safe name, the selection its priorities, and the
    /// resume data the metadata (so a restart does not ask the swarm again).
    private mutating func metadataArrived() async -> Bool {
        guard let details = await transfer.session.details(id), let first = details.files.first else { return true }
        fileCount = details.files.count
        facts.fileCount = details.files.count
        let own = String(first.path.split(separator: "/", maxSplits: 1).first ?? "")
        let total = details.files.reduce(Int64(0)) { $0 + $1.size }
        if name == nil {
            guard let claimed = await transfer.claim(own, total: total) else { return false }
            name = claimed
            if claimed != own { await transfer.session.renameRoot(id, to: claimed) }
            await transfer.session.moveStorage(id, to: transfer.start.download.directory)
        }
        let count = details.files.count
        let selection = transfer.start.download.request.selectedFiles
        await transfer.session.setPriorities(
            id, selection?.priorities(count: count) ?? [UInt8](repeating: 4, count: count))
        wanted = zip(details.files.indices, details.files).reduce(Int64(0)) { sum, file in
            sum + (selection?.contains(file.0 + 1) ?? true ? file.1.size : 0)
        }
        _ = await transfer.session.saveResumeData(id, onlyIfModified: false)
        return true
    }

    private mutating func report(_ status: TorrentStatus) async {
        if let counted {
            let bytes = max(0, status.downloaded - counted.down) + max(0, status.uploaded - counted.up)
            if bytes > 0 { _ = transfer.start.throttle.takeFromBudget(Int(bytes)) }
        }
        counted = (status.downloaded, status.uploaded)
        if status.hasMetadata, wantedCheckedAt != status.wanted, let details = await transfer.session.details(id) {
            wantedCheckedAt = status.wanted
            wanted = details.files.reduce(Int64(0)) { $0 + ($1.selected ? $1.size : 0) }
            fileCount = details.files.count
        }
        facts.peers = status.peers
        facts.seeds = status.seeds
        facts.uploadRate = status.uploadRate
        facts.uploaded = max(facts.uploaded, status.uploaded)
        if let fileCount { facts.fileCount = fileCount }
        // Whole pieces done, scaled to the selected files' bytes: exact at the start and the end.
        let received =
            status.wanted > 0 && wanted > 0
            ? Int64(Double(status.wantedDone) / Double(status.wanted) * Double(wanted)) : status.wantedDone
        lastReceived = received
        await reports.torrentChanged(total: status.hasMetadata && wanted > 0 ? wanted : nil, facts: facts)
        await reports.progress(TransferProgress(received: received, connections: status.peers))
    }

    /// The bytes of the selected files that still take room when written: what their files take
    /// on disk already counts, pieces written before they are whole and counted done included.
    private var restToWrite: Int64 {
        let onDisk = name.map { DiskSpace.allocatedBytes(at: transfer.start.download.directory + "/" + $0) } ?? 0
        return max(0, wanted - max(lastReceived, onDisk))
    }

    /// Whether the files are named and every selected one is on disk, verified piece by piece.
    private func isComplete() async -> Bool {
        guard name != nil, let details = await transfer.session.details(id) else { return false }
        let selected = details.files.filter(\.selected)
        return !selected.isEmpty && selected.allSatisfy { $0.done == $0.size }
    }

    /// Every wanted piece passed its check: the resume data is saved, and the download has finished.
    private mutating func finish() async -> Bool {
        // The staging folder of a magnet is empty once its files moved.
        rmdir(transfer.stagingFolder(facts.infoHash))
        if wanted == 0, let details = await transfer.session.details(id) {
            wanted = details.files.reduce(Int64(0)) { $0 + ($1.selected ? $1.size : 0) }
        }
        await transfer.saveResumeDataOfAFinishedTorrent(selection: transfer.start.download.request.selectedFiles)
        await reports.progress(TransferProgress(received: wanted, connections: nil))
        await reports.ended(.finished(fileName: name ?? "", size: wanted))
        return true
    }
}
