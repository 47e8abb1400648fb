import FoundationEssentials
import HaulCore
import HaulHTTP

/// Turns what a server named about other copies of the file (``MirrorHints``) into a download's
/// mirrors, checksum and piece hashes: `Link: rel=duplicate` mirrors, a `Digest`, and the
/// Metalink a `Link: rel=describedby` points at. The user's own checksum always wins.
struct MirrorDiscovery {
    let policy: TransferPolicy
    let transport: ClientTransport

    /// What was learned, applied to `job`; true when anything changed. `skipped` hears of the
    /// schemes of a Metalink's URLs that are not used.
    func apply(
        _ hints: MirrorHints, to job: inout TransferJob, primary: String, total: Int64?,
        skipped: ([String]) async -> Void = { _ in }
    ) async -> Bool {
        var changed = add(hints.duplicates, to: &job, primary: primary)
        if job.request.checksum == nil, let digest = DigestHeader.checksum(hints.digests) {
            job.request.checksum = digest
            changed = true
        }
        if let url = hints.metalinks.first, let file = await metalinkFile(url, total: total, like: job.target) {
            if !file.skippedSchemes.isEmpty { await skipped(file.skippedSchemes) }
            changed = add(file.sources, to: &job, primary: primary) || changed
            if job.request.checksum == nil, let checksum = file.checksum {
                job.request.checksum = checksum
                changed = true
            }
            if job.request.pieceHashes == nil, let pieces = file.pieces {
                job.request.pieceHashes = pieces
                changed = true
            }
        }
        return changed
    }

    /// The notice for a Metalink's URLs of other schemes than http and https.
    static func skippedNotice(_ schemes: [String]) -> Notice {
        let names = Set(schemes).sorted().map { TerminalText.sanitize($0) }.joined(separator: ", ")
        return .text("the Metalink's \(names) URLs are skipped: haul fetches over http and https")
    }

    private func add(_ found: [DownloadSource], to job: inout TransferJob, primary: String) -> Bool {
        let known = Set([primary, job.target.url] + job.mirrors.map(\.url))
        let new = DownloadSource.ordered(found.filter { !known.contains($0.url) }, excluding: primary)
        job.mirrors += new
        return !new.isEmpty
    }

    /// The file of the Metalink at `url` that is this download's: the only one, or the one of
    /// its size. Nil when it cannot be fetched or read: discovery never fails a download.
    private func metalinkFile(_ url: String, total: Int64?, like target: TransferTarget) async -> Metalink.File? {
        do {
            // Through the download's proxies, with none of its credentials.
            let document = TransferTarget(url: url, proxy: target.proxy, proxies: target.proxies, hosts: target.hosts)
            let (response, _) = try await policy.send(document, offset: 0, over: transport)
            guard response.head.status == 200 else {
                response.drop()
                return nil
            }
            let body = CollectedBody(limit: Metalink.mostBytes)
            try await response.writeWhole(to: body)
            let metalink = try Metalink(parsing: Data(body.collected))
            if metalink.files.count == 1 { return metalink.files[0] }
            return metalink.files.first { $0.size != nil && $0.size == total }
        } catch {
            return nil
        }
    }
}
