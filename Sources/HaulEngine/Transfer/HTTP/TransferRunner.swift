import FoundationEssentials
import Glibc
import HaulCore
import HaulHTTP
import HaulStore

/// Runs one download until it finishes, fails for good, or its task is cancelled: attempts and
/// retries, naming, streaming into the `.part`, final placement. What to ask the server and what
/// its answers mean is ``TransferPolicy``'s; the network is ``ClientTransport``'s.
///
/// It tells the engine what happens only through its ``TransferReports``, which name this run,
/// so a paused or cancelled run can never change the download afterwards.
/// The download's URL served a Metalink document and the download became its first file.
struct MetalinkFollowed: Error {}
/// The download's URL served a torrent file and the download became that torrent.
struct TorrentFollowed: Error {}
/// The server a run's opening request went to did not answer it, and the next source is asked at once.
struct SourceSwitched: Error {}

struct TransferRunner: Sendable {
    let reports: any HTTPTransferReports
    let resources: TransferResources
    let transport: ClientTransport
    let policy: TransferPolicy
    let configuration: EngineConfiguration
    /// How many times in a row a request may be turned away unprocessed before it counts as a
    /// failed attempt: a connection ending with GOAWAY turns away the streams sent past its last.
    static let mostTurnedAway = 16

    /// A runner for one transfer, whose reads draw from `throttle`.
    init(
        reports: any HTTPTransferReports, resources: TransferResources, throttle: Throttle,
        configuration: EngineConfiguration
    ) {
        self.reports = reports
        self.resources = resources
        transport = ClientTransport(pool: resources.pool, pacing: throttle)
        policy = TransferPolicy(userAgent: configuration.userAgent, maxRedirects: configuration.maxRedirects)
        self.configuration = configuration
    }

    /// Runs `initialJob` with the cookies of `cookieFile`, read afresh for each run: a browser may
    /// have written the file again.
    func run(_ initialJob: TransferJob, cookieFile: String?) async {
        var job = initialJob
        if let path = cookieFile {
            do {
                job.target.cookies = CookieJar(try CookieFile.load(path), clock: resources.wallClock)
            } catch {
                await reports.ended(.failed(TransferFailure(.file(error.message))))
                return
            }
        }
        // Requests the server turned away unprocessed, sent again at once without counting as
        // attempts; bounded, so a server that turns every request away still fails the download.
        var turnedAway = 0
        while !Task.isCancelled {
            var progressMade = false
            do {
                try await attempt(&job, progressMade: &progressMade)
                return
            } catch is SegmentedTransfer.Stop {
                // The `.part` was emptied and the run stays on one connection: start again now.
                continue
            } catch is MetalinkFollowed {
                // The download is now the Metalink's first file: fetch it.
                continue
            } catch is TorrentFollowed {
                // The download is now a torrent: the engine starts it as one.
                return
            } catch is SourceSwitched {
                // Not an attempt of its own: a round over the sources counts as one.
                continue
            } catch {
                if Task.isCancelled || error is CancellationError { return }
                let failure = TransferFailure.classify(error, stallTimeout: configuration.stallTimeout)
                if failure.unprocessed, !progressMade, turnedAway < Self.mostTurnedAway {
                    turnedAway += 1
                    continue
                }
                // Nothing answered while the machine has no network: that says nothing about the
                // server, so it is not counted, and the download waits for the network to come back.
                if failure.isTransient, failure.mayBeTheNetwork, !NetworkPresence.hasWayOut() {
                    await reports.notice(.waitingForNetwork(because: failure.reason))
                    do { try await NetworkPresence.wait(on: resources.clock) } catch { return }
                    await reports.notice(nil)
                    continue
                }
                guard failure.isTransient,
                    let delay = await reports.willRetry(failure, madeProgress: progressMade)
                else {
                    await reports.ended(.failed(failure))
                    return
                }
                do { try await resources.clock.sleep(for: delay) } catch { return }
            }
        }
    }

    /// One attempt: the policy opens the body (following redirects, starting over when it must),
    /// then the body is written into the `.part` and the file placed.
    private func attempt(_ job: inout TransferJob, progressMade: inout Bool) async throws {
        if job.linkUnchecked { try await checkNewLink(&job) }
        if try await resumeSegments(&job, progressMade: &progressMade) { return }
        // What the download had on disk before this attempt. Progress is getting past it: a
        // server that ignores ranges and cuts the body at the same point every time would make
        // each attempt "progress" from 0 after it started over, and the retries never run out.
        // Up to the first hole: a `.part` written out of order without a map is used only as far
        // as its bytes are contiguous.
        let partSize = job.fileName.flatMap { PartFile.contiguousSize(at: partPath(job, $0)) }
        let had = partSize ?? 0
        let current = job
        let opened: TransferPolicy.Opened<ClientResponse>
        do {
            opened = try await policy.open(&job.target, partSize: partSize, size: job.totalBytes, over: transport) {
                why in
                if let name = current.fileName { try PartFile(path: partPath(current, name), truncate: true).close() }
                await reports.notice(.startedOver(why))
            }
        } catch {
            // A segmented run's map is resumed by its own sources' connections.
            guard job.segments == nil else { throw error }
            switch await askNextSource(&job, after: error, had: had, part: job.fileName.map { partPath(job, $0) }) {
            case .switched: throw SourceSwitched()
            case .roundEnded(let failure): throw failure
            case .unchanged: throw error
            }
        }
        switch opened {
        case .complete(let total):
            guard let name = job.fileName else { throw TransferFailure(.completeWithoutFile) }
            let inMemory = resources.volumes.volume(holding: job.directory, writing: nil)?.inMemory ?? false
            try await ensureWhole(&job, name: name, size: total)
            try await place(&job, name: name, size: total, inMemory: inMemory)
        case .body(let body):
            try await write(body, for: &job, had: had, progressMade: &progressMade)
        }
    }

    /// Claims the file's name, creates or opens its `.part`, streams the body into it and
    /// places the finished file.
    private func write(
        _ body: TransferPolicy.Body<ClientResponse>, for job: inout TransferJob, had: Int64, progressMade: inout Bool
    ) async throws {
        var bodyTaken = false
        defer { if !bodyTaken { body.response.drop() } }
        let (offset, total) = (body.offset, body.total)
        let volume = resources.volumes.volume(holding: job.directory, writing: total.map { $0 - offset })
        if let total, let shortfall = volume?.shortfall(writing: total - offset) {
            throw TransferFailure(.diskFull(shortfall: shortfall))
        }
        if job.fileName == nil, offset == 0, Metalink.isMetalink(contentType: body.response.head["content-type"]) {
            bodyTaken = true
            try await follow(body.response, job: &job)
        }
        if job.fileName == nil, offset == 0,
            MagnetLink.servesTorrent(contentType: body.response.head["content-type"], url: job.target.url)
        {
            bodyTaken = true
            try await followTorrent(body.response)
        }
        // A new name is looked up on disk here, not on the engine's actor.
        let naming: ResponseInfo.Name
        var freeOnDisk: String?
        if let known = job.fileName {
            naming = .known(known)
        } else {
            let suggested =
                job.request.requestedName
                ?? FileNaming.suggestedName(
                    contentDisposition: body.response.head["content-disposition"], url: body.finalURL)
            naming = .suggested(suggested)
            if Engine.isFinalNameFree(suggested, in: job.directory) { freeOnDisk = suggested }
        }
        let info = ResponseInfo(
            name: naming, freeOnDisk: freeOnDisk, receivedBytes: offset, totalBytes: total, etag: job.target.etag,
            lastModified: job.target.lastModified, resumable: body.resumable, finalURL: body.finalURL,
            startOver: body.startOver, multiplexed: body.response.head.multiplexed)
        guard var name = await reports.began(info) else { throw CancellationError() }
        let part: PartFile
        if case .suggested(let suggested) = naming {
            let created = try await createPart(job, name: name, suggestion: suggested, total: total)
            part = created.part
            name = created.name
        } else {
            part = try PartFile(path: partPath(job, name), truncate: offset == 0)
            if offset > 0 { try part.truncate(to: offset) }
        }
        job.fileName = name
        job.totalBytes = total
        job.sourceURL = body.finalURL
        if !job.request.ignoresMirrorHeaders, !body.hints.isEmpty,
            await MirrorDiscovery(policy: policy, transport: transport).apply(
                body.hints, to: &job, primary: body.finalURL, total: total,
                skipped: { await reports.notice(MirrorDiscovery.skippedNotice($0)) })
        {
            await reports.sourcesChanged(
                job.mirrors, checksum: job.request.checksum, pieceHashes: job.request.pieceHashes)
        }
        bodyTaken = true
        if let total, body.resumable == true, !job.oneConnection, job.connections.current > 1,
            total - offset >= 2 * SegmentTuning().minimumPiece
        {
            defer { part.close() }
            do {
                try await runSegments(
                    &job, name: name, part: part, total: total, plan: SegmentPlan(total: total, received: offset),
                    first: (body.response, offset..<total), source: body.finalURL, progressMade: &progressMade)
            } catch SegmentedTransfer.Stop.startOver(let why) {
                try await startOver(&job, name: name, why)
                throw SegmentedTransfer.Stop.startOver(why)
            }
            try await ensureWhole(&job, name: name, size: total)
            try await place(&job, name: name, size: total, inMemory: volume?.inMemory ?? false)
            return
        }
        let size = try await stream(
            body.response, into: part, from: offset, total: total, job: job, had: had, progressMade: &progressMade)
        if offset > 0 { try await ensureWhole(&job, name: name, size: size) }
        try await place(&job, name: name, size: size, inMemory: volume?.inMemory ?? false)
    }

    /// Reads the Metalink document `response` carries and makes the download its first file
    /// (the engine adds the others); throws ``MetalinkFollowed`` to fetch it, or why it cannot.
    private func follow(_ response: ClientResponse, job: inout TransferJob) async throws {
        let body = CollectedBody(limit: Metalink.mostBytes)
        try await response.writeWhole(to: body)
        let metalink: Metalink
        do {
            metalink = try Metalink(parsing: Data(body.collected))
        } catch {
            throw TransferFailure(.other("the server sent a Metalink document haul cannot use: " + error.message))
        }
        guard let first = metalink.files.first, let url = first.sources.first?.url else {
            throw TransferFailure(.other("the server's Metalink document gives no http or https URL"))
        }
        guard let folder = await reports.followedMetalink(metalink, url: url) else { throw CancellationError() }
        job.request.directory = folder
        let skipped = metalink.files.flatMap(\.skippedSchemes)
        if !skipped.isEmpty { await reports.notice(MirrorDiscovery.skippedNotice(skipped)) }
        job.target = TransferTarget(
            url: url, proxy: job.target.proxy, proxies: job.target.proxies, hosts: job.target.hosts)
        job.request.requestedName = job.request.requestedName ?? first.name
        job.mirrors = Array(first.sources.dropFirst())
        // The Metalink's first URL is the download's own now, whichever source served the document.
        job.ownTarget = nil
        job.fallback = SourceFallback()
        job.request.checksum = job.request.checksum ?? first.checksum
        job.request.pieceHashes = first.pieces
        job.sourceURL = nil
        throw MetalinkFollowed()
    }

    /// Reads the torrent file `response` carries and makes the download that torrent; throws
    /// ``TorrentFollowed`` to end this run, or why it cannot.
    private func followTorrent(_ response: ClientResponse) async throws {
        let body = CollectedBody(limit: TorrentMetadata.mostBytes)
        try await response.writeWhole(to: body)
        let bytes = body.collected
        do {
            _ = try TorrentMetadata(torrent: bytes)
        } catch {
            throw TransferFailure(.other("the server sent a torrent file haul cannot use: " + error.message))
        }
        guard await reports.followedTorrent(bytes) else { throw CancellationError() }
        throw TorrentFollowed()
    }

    /// A new link (`haul refresh`) must serve the file the bytes on disk are of: compared by its
    /// first answer, the `.part` is kept (and resumed by Range) or emptied with a notice saying why.
    private func checkNewLink(_ job: inout TransferJob) async throws {
        let path = job.fileName.map { partPath(job, $0) }
        let onDisk = path.flatMap { PartFile.size(at: $0) } ?? 0
        if onDisk > 0 || job.segments != nil, let name = job.fileName {
            let check = try await policy.checkNewLink(&job.target, size: job.totalBytes, over: transport)
            if case .otherFile(let size, let was) = check {
                try await startOver(&job, name: name, nil)
                await reports.notice(.otherFileAtNewLink(size: size, was: was))
            }
        }
        job.linkUnchecked = false
        await reports.checkedLink(etag: job.target.etag, lastModified: job.target.lastModified)
    }

    /// Resumes a segmented download from its map: every piece where it stopped. Returns false
    /// when the download has no usable map (a map that does not fit, or no `.part`: its
    /// `.part`, holes and all, is emptied) or its server no longer serves its ranges.
    private func resumeSegments(_ job: inout TransferJob, progressMade: inout Bool) async throws -> Bool {
        guard let map = job.segments, let name = job.fileName else { return false }
        let path = partPath(job, name)
        guard let total = job.totalBytes, map.isMap(ofSize: total),
            PartFile.size(at: path) != nil
        else {
            try await startOver(&job, name: name, nil)
            return false
        }
        let part = try PartFile(path: path, truncate: false)
        defer { part.close() }
        do {
            try await runSegments(
                &job, name: name, part: part, total: total, plan: SegmentPlan(total: total, map: map), first: nil,
                source: job.sourceURL ?? job.target.url, progressMade: &progressMade)
        } catch SegmentedTransfer.Stop.startOver(let why) {
            try await startOver(&job, name: name, why)
            return false
        }
        let inMemory = resources.volumes.volume(holding: job.directory, writing: nil)?.inMemory ?? false
        try await ensureWhole(&job, name: name, size: total)
        try await place(&job, name: name, size: total, inMemory: inMemory)
        return true
    }

    /// Fetches the rest of the file over several connections and sources (see
    /// ``SegmentedTransfer``); `job.segments` follows the map saved, for the next attempt. With
    /// piece hashes, the pieces that fail theirs are fetched again from other sources, the ones
    /// that served them banned.
    private func runSegments(
        _ job: inout TransferJob, name: String, part: PartFile, total: Int64, plan: SegmentPlan,
        first: (ClientResponse, Range<Int64>)?, source: String, progressMade: inout Bool
    ) async throws {
        var (plan, first) = (plan, first)
        var primaryBanned: SourceProblem?
        for round in 1...Self.pieceRounds {
            let writtenBy = try await runRound(
                &job, name: name, part: part, total: total, plan: plan, first: first, source: source,
                primaryBanned: primaryBanned, progressMade: &progressMade)
            guard let hashes = job.request.pieceHashes, hashes.fit(total: total) else { return }
            let path = partPath(job, name)
            let bad = try await FileWorkers.run { try PieceCheck.failing(hashes, path: path, total: total) }
            guard !bad.isEmpty else { return }
            let badRanges = bad.map { hashes.range(of: $0, total: total) }
            for (range, index) in writtenBy where index > 0 {
                let lost = badRanges.reduce(Int64(0)) { $0 + Int64($1.clamped(to: range).count) }
                job.mirrors[index - 1].bytes = max(0, job.mirrors[index - 1].bytes - lost)
            }
            let writers = badRanges.map { PieceCheck.writers(of: $0, in: writtenBy) }
            for index in PieceCheck.blame(writers).sorted() {
                // The first failed piece it wrote into.
                let piece = zip(bad, writers).first { $0.1.contains(index) }?.0 ?? bad[0]
                let problem = SourceProblem.badPiece(index: piece)
                if index == 0 {
                    primaryBanned = problem
                    await reports.notice(.text("banned the source \(SourceNames.host(source)): \(problem.text)"))
                } else if job.mirrors[index - 1].problem == nil {
                    job.mirrors[index - 1].problem = problem
                    job.mirrors[index - 1].banned = true
                    await reports.notice(MirrorRequests.droppedNotice(job.mirrors[index - 1], problem))
                }
            }
            await reports.sourcesChanged(job.mirrors, checksum: nil, pieceHashes: nil)
            guard round < Self.pieceRounds, primaryBanned == nil || job.mirrors.contains(where: \.isUsable) else {
                throw TransferFailure(.other(Self.badPiecesText(bad, sources: [source] + job.mirrors.map(\.url))))
            }
            plan = SegmentPlan(
                total: total, map: PieceCheck.map(total: total, missing: badRanges)
            )
            first = nil
        }
    }

    /// Rounds of fetching pieces again after some failed their hashes, before the download fails.
    static let pieceRounds = 4

    private static func badPiecesText(_ bad: [Int], sources: [String]) -> String {
        let hosts = SourceNames.hosts(sources)
        return "\(bad.count) piece(s) failed their hash from every source tried (\(hosts))"
    }

    /// One segmented run; returns which source wrote which bytes.
    private func runRound(
        _ job: inout TransferJob, name: String, part: PartFile, total: Int64, plan: SegmentPlan,
        first: (ClientResponse, Range<Int64>)?, source: String, primaryBanned: SourceProblem?,
        progressMade: inout Bool
    ) async throws -> [(range: Range<Int64>, source: Int)] {
        let had = plan.received
        var setup = SegmentedTransfer.Setup(
            reports: reports, resources: resources, transport: transport, policy: policy,
            configuration: configuration, job: job, name: name, writer: part.writer(dropBehind: true), total: total,
            sourceURL: source)
        setup.primaryBanned = primaryBanned
        let last = LastReported<[Segment]>()
        let seen = LastReported<[DownloadSource]>()
        defer {
            if let map = last.value {
                job.segments = map
                progressMade = progressMade || map.received > had
            }
            if let mirrors = seen.value { job.mirrors = mirrors }
        }
        let result: Result<SegmentedTransfer.Result, any Error>
        do {
            result = .success(
                try await SegmentedTransfer.runReturningSources(
                    setup, plan: plan, first: first, saved: { last.value = $0 }, mirrorsSeen: { seen.value = $0 }))
        } catch {
            result = .failure(error)
        }
        // What the sources did is kept however the run ended: a dropped mirror stays dropped.
        if let mirrors = seen.value, !mirrors.isEmpty {
            await reports.sourcesChanged(mirrors, checksum: nil, pieceHashes: nil)
        }
        return try result.get().writtenBy
    }

    /// A file put together from earlier bytes (a piece map, a resume) is named only once its
    /// `.part` holds every byte from the first: a map or an offset that claims bytes the `.part`
    /// does not hold (it was cut, emptied or left with holes since) would otherwise be named
    /// finished short or with zeros. The download starts over instead.
    private func ensureWhole(_ job: inout TransferJob, name: String, size: Int64) async throws {
        guard let held = PartFile.contiguousSize(at: partPath(job, name)), held != size else { return }
        try await startOver(&job, name: name, .partNotWhole)
        throw SegmentedTransfer.Stop.startOver(.partNotWhole)
    }

    /// Forgets the map and the validators, then empties the `.part` (when there is one): the
    /// file is fetched again from its first byte, on one connection for the rest of this run.
    /// `why` is told to the user. The engine journals the forgetting before the `.part` changes,
    /// so a crash never leaves a map that claims bytes the `.part` no longer holds.
    private func startOver(_ job: inout TransferJob, name: String, _ why: StartOverReason?) async throws {
        job.segments = nil
        job.target.etag = nil
        job.target.lastModified = nil
        if why != nil { job.oneConnection = true }
        await reports.startedOver(why)
        let path = partPath(job, name)
        if PartFile.size(at: path) != nil { try PartFile(path: path, truncate: true).close() }
    }

    /// Journals the claim of a new name, then creates its `.part`, exclusively: a crash can
    /// never leave a `.part` the state does not know, and a `.part` already there by that name
    /// (another program's, or a download's of another state file) is never written into; the
    /// engine then claims the next free name based on `suggestion`. The transfer writes the
    /// journal, so the engine's actor does not wait on the file system.
    private func createPart(_ job: TransferJob, name claimed: String, suggestion: String, total: Int64?) async throws
        -> (part: PartFile, name: String)
    {
        var name = claimed
        while true {
            resources.journal.append(
                .init(
                    id: job.id, fileName: name, totalBytes: total, finished: false, etag: job.target.etag,
                    lastModified: job.target.lastModified))
            do {
                let part = try PartFile(path: partPath(job, name), truncate: true, exclusive: true)
                return (part, name)
            } catch {
                guard error.isTaken else { throw error }
                guard let next = await reports.claimName(suggestion, total: total, keepingPart: nil) else {
                    throw CancellationError()
                }
                name = next
            }
        }
    }

    /// Has the body written into `part` from `offset` (on the event loop, see `ResponseSink`)
    /// while passing its progress on to the engine; returns the final size. Progress is made
    /// when the file gets past `had` bytes, what it held before the attempt (`offset` is that or 0).
    private func stream(
        _ response: ClientResponse, into part: PartFile, from offset: Int64, total: Int64?, job: TransferJob,
        had: Int64,
        progressMade: inout Bool
    ) async throws -> Int64 {
        // Closed only after the request has ended: no write can come later.
        defer { part.close() }
        // Dropping written pages pays off for large bodies; a small one is done before it matters.
        let large = total.map { $0 - offset >= WriteBehind.defaultChunk } ?? true
        var reported = false
        let size: Int64
        do {
            switch try response.startWriting(to: part.writer(dropBehind: large), at: offset, total: total) {
            case .streaming(let position) where position > offset:
                // What was read ahead is on disk: the engine hears of it now, not after the next
                // part (which a speed cap may hold back for a while).
                reported = true
                await reports.progress(TransferProgress(received: position))
            case .finished(let size, let capWait) where capWait > .zero:
                reported = true
                await reports.progress(TransferProgress(received: size))
                try await resources.clock.sleep(for: capWait)
            default:
                break
            }
            size = try await withTaskCancellationHandler {
                while true {
                    switch try await response.nextEvent() {
                    case .progress(let position):
                        reported = true
                        await reports.progress(TransferProgress(received: position))
                    case .finished(let size):
                        return size
                    }
                }
            } onCancel: {
                response.cancel()
            }
        } catch {
            progressMade = response.position > had
            throw error
        }
        progressMade = size > had
        // A body that arrived within one progress interval goes straight to "finished" (which
        // carries the size): with many small files that is one engine call less per file.
        if reported { await reports.progress(TransferProgress(received: size)) }
        try Task.checkCancellation()
        if let total, size < total {
            throw TransferFailure(.closedEarly(received: size, expected: total))
        }
        return size
    }

    /// Verifies the checksum, then makes the `.part` durable and moves it to a free final name,
    /// and makes that durable too: a file is never called finished before it is on disk.
    ///
    /// `inMemory`: the directory is on tmpfs or ramfs, where `fsync` has nothing to write. The
    /// rename alone is a few microseconds there, so it is done right here: with many small files
    /// the trip to a worker thread and back cost more than the rest of the placing.
    private func place(_ job: inout TransferJob, name: String, size: Int64, inMemory: Bool) async throws {
        let part = partPath(job, name)
        if let expected = job.request.checksum {
            let actual = try await FileWorkers.run { try FileChecksum.digest(of: part, expected.algorithm) }
            if actual != expected.hex {
                // The bad bytes never get the final name; a retry fetches the file again.
                unlink(part)
                let mismatch = FailureReason.checksumMismatch(
                    algorithm: expected.algorithm.rawValue, expected: expected.hex, actual: actual)
                let served = job.mirrors.filter { $0.bytes > 0 }
                guard !served.isEmpty else { throw TransferFailure(mismatch) }
                // Which source sent the bad bytes is unknown without piece hashes: all are named.
                let from = SourceNames.hosts([job.sourceURL ?? job.target.url] + served.map(\.url))
                throw TransferFailure(.other(ReasonText.failure(mismatch) + "; the file came from " + from))
            }
        }
        var finalName = name
        while true {
            let (directory, final) = (job.directory, Download.path(of: finalName, in: job.directory))
            // Otherwise with the other files finishing now, as one group commit. After a name was
            // taken the fsync finds nothing left to write.
            let placement =
                inMemory
                ? FinalPlacement.move(part, to: final)
                : await DurablePlacement.shared.place(.init(part: part, final: final, directory: directory))
            switch placement {
            case .placed:
                resources.journal.appendSoon(
                    .init(
                        id: job.id, fileName: finalName, totalBytes: size, finished: true,
                        finishedAt: resources.wallClock.now().toTheMicrosecond))
                await reports.ended(.finished(fileName: finalName, size: size))
                return
            case .nameTaken:
                guard let next = await reports.claimName(name, total: size, keepingPart: part) else {
                    throw CancellationError()
                }
                resources.journal.append(.init(id: job.id, fileName: next, totalBytes: size, finished: false))
                finalName = next
            case .failed(let error):
                // The `.part` went away under the transfer (deleted by hand, a cleaner): its bytes
                // are gone, and the file is fetched again rather than the download failing.
                if PartFile.size(at: part) == nil, !job.partVanished {
                    job.partVanished = true
                    try await startOver(&job, name: name, .partNotWhole)
                    throw SegmentedTransfer.Stop.startOver(.partNotWhole)
                }
                throw error
            }
        }
    }

    func partPath(_ job: TransferJob, _ name: String) -> String {
        Download.path(of: name, in: job.directory, suffix: ".part")
    }
}
