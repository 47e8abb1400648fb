import HaulCore
import HaulHTTP

/// What a failed request of a run leads to among the download's sources.
enum SourceChoice {
    /// Another source is asked at once.
    case switched
    /// Every source was asked this round: the attempt ends with this failure.
    case roundEnded(TransferFailure)
    /// The failure is not one another source may help with, or there is none.
    case unchanged
}

extension TransferRunner {
    /// After a request of the run failed with `error`: points `job` at the next of its sources
    /// that may serve it, with that source's own requests (no credentials), and says so. When
    /// every source was asked this round, the attempt ends with the failure
    /// ``SourceFallback/roundFailure`` names, and the next asks the download's own URL first.
    ///
    /// With `had` bytes on disk (in `part`), a source resumes them only once it shows the same
    /// file: its size is the size known, and the bytes before `had` are those on disk
    /// (``OverlapCheck``); its validators are its own server's, so they prove nothing here.
    func askNextSource(_ job: inout TransferJob, after error: any Error, had: Int64, part: String?) async
        -> SourceChoice
    {
        guard !job.mirrors.isEmpty, !Task.isCancelled, !(error is CancellationError) else { return .unchanged }
        let failure = TransferFailure.classify(error, stallTimeout: configuration.stallTimeout)
        guard !failure.unprocessed, failure.reason.mayServeElsewhere else { return .unchanged }
        if had > 0, job.totalBytes == nil || part == nil { return .unchanged }
        let own = job.ownTarget ?? job.target
        let before = job.mirrors
        var sources = before
        var problem = SourceProblem.failed(failure.reason)
        var next: DownloadSource?
        job.fallback.failed(failure)
        while let source = job.fallback.next(after: problem, primary: own.url, sources: &sources) {
            guard had > 0, let part, let total = job.totalBytes else {
                next = source
                break
            }
            let target = MirrorRequests.target(for: source, of: own)
            guard let differs = await otherFile(at: target, total: total, had: had, part: part) else {
                next = source
                break
            }
            problem = differs
            if case .failed(let reason) = differs { job.fallback.failed(TransferFailure(reason)) }
            await reports.notice(MirrorRequests.droppedNotice(source, differs))
        }
        job.mirrors = sources
        if sources != before { await reports.sourcesChanged(sources, checksum: nil, pieceHashes: nil) }
        guard let next else {
            job.target = own
            job.ownTarget = nil
            return .roundEnded(job.fallback.roundFailure ?? failure)
        }
        let failed = job.target.url
        job.ownTarget = own
        job.target = MirrorRequests.target(for: next, of: own)
        // A failed connect names its host already; a status does not.
        let why: String
        if case .cannotConnect = failure.reason {
            why = "\(failure)"
        } else {
            why = "\(SourceNames.host(failed)): \(failure)"
        }
        await reports.notice(.text("\(why); asking \(SourceNames.host(next.url)) instead"))
        return .switched
    }

    /// Why `target` cannot resume the `had` bytes of a file of `total` in `part`: nil when it
    /// serves the same size and the same bytes just before `had`.
    private func otherFile(at target: TransferTarget, total: Int64, had: Int64, part: String) async -> SourceProblem? {
        let region = (had - min(had, OverlapCheck.length))..<had
        do {
            let response = try await policy.send(target, range: region, from: target.url, over: transport)
            var taken = false
            defer { if !taken { response.drop() } }
            let head = response.head
            switch RangeResponseCheck.check(head, asked: region, total: total, etag: nil, lastModified: nil) {
            case .accepted:
                taken = true
                let body = CollectedBody(limit: region.count)
                try await response.writeWhole(to: body, at: region.lowerBound, total: region.upperBound)
                return body.collected == OverlapCheck.read(region, at: part) ? nil : .otherContent
            case .fileChanged:
                let size = head["content-range"].flatMap(ContentRange.init)?.complete ?? head.contentLength ?? 0
                return .sizeDiffers(size: size, expected: total)
            case .wrongRange(let reason):
                return .failed(reason)
            case .refused(let refusal):
                return .failed(refusal.reason)
            }
        } catch {
            return .failed(TransferFailure.classify(error, stallTimeout: configuration.stallTimeout).reason)
        }
    }
}
