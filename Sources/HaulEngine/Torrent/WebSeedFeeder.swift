import HaulCore
import HaulHTTP
import Synchronization

/// Fetches a torrent's missing pieces from its web seeds (BEP 19) through haul's own HTTP, so the
/// download's proxies, per-host headers, speed limits and metered budget hold for them as for any
/// download, and hands each whole piece to libtorrent, which checks its hash before writing it.
/// libtorrent is never told of the seeds (``TorrentAddition`` leaves them out).
struct WebSeedFeeder {
    /// What a web seed's requests are made with: the HTTP transfers' own policy and transport.
    struct HTTP: Sendable {
        let policy: TransferPolicy
        let transport: ClientTransport
        let proxies: ProxySettings
        let hosts: HostSettings
    }

    /// The pieces libtorrent refused (their hash failed), told by the torrent's run, which hears
    /// of them; the feeder blames the seed that sent each.
    final class Refusals: Sendable {
        private let pieces = Mutex<[Int]>([])
        func record(_ piece: Int) { pieces.withLock { $0.append(piece) } }
        func take() -> [Int] {
            pieces.withLock { taken in
                defer { taken = [] }
                return taken
            }
        }
    }

    let id: DownloadID
    let session: TorrentSession
    let seeds: [String]
    let http: HTTP
    let download: Download
    let reports: RunReports
    let refusals: Refusals
    /// Pieces asked of one seed at once.
    static let parallel = 4
    /// How long a piece handed to libtorrent may take to show as had before it is asked for again.
    static let checkTime: Duration = .seconds(30)
    /// Failures after which a seed is no longer asked.
    static let mostFailures = 3

    /// Feeds pieces until the task is cancelled: the torrent's run ends it.
    func run() async {
        guard !seeds.isEmpty else { return }
        var layout: WebSeedLayout?
        while layout == nil {
            layout = await session.webSeedLayout(id)
            if layout == nil { guard (try? await Task.sleep(for: .seconds(1))) != nil else { return } }
        }
        guard let layout else { return }
        var usable = seeds
        var failures: [String: Int] = [:]
        var handed: [Int: (seed: String, at: ContinuousClock.Instant)] = [:]
        let clock = ContinuousClock()
        while !Task.isCancelled, let seed = usable.first {
            guard let (bits, count) = await session.pieces(id), let fetched = await session.fetchedFiles(id) else {
                return
            }
            func has(_ piece: Int) -> Bool { bits[piece / 8] & UInt8(0x80 >> (piece % 8)) != 0 }
            // A piece whose hash failed counts against the seed that sent it, and is asked again.
            for piece in refusals.take() {
                guard let hand = handed.removeValue(forKey: piece) else { continue }
                failures[hand.seed, default: 0] += 1
            }
            for (piece, hand) in handed where has(piece) || clock.now - hand.at > Self.checkTime {
                handed[piece] = nil
            }
            if let worst = usable.first(where: { failures[$0, default: 0] >= Self.mostFailures }) {
                usable.removeAll { $0 == worst }
                await reports.notice(
                    .text("web seed \(TerminalText.sanitize(worst)) sent pieces that failed their hash"))
                continue
            }
            let missing = (0..<min(count, layout.pieceCount)).lazy.filter { piece in
                !has(piece) && handed[piece] == nil
                    && layout.isWanted(piece: piece) { $0 < fetched.count ? fetched[$0] : true }
            }
            let batch = Array(missing.prefix(Self.parallel))
            guard !batch.isEmpty else {
                guard (try? await Task.sleep(for: .milliseconds(500))) != nil else { return }
                continue
            }
            let results = await withTaskGroup(of: (Int, Result<[UInt8], TransferFailure>).self) { group in
                for piece in batch {
                    group.addTask { (piece, await fetch(piece, of: layout, from: seed)) }
                }
                var results: [(Int, Result<[UInt8], TransferFailure>)] = []
                for await result in group { results.append(result) }
                return results
            }
            for (piece, result) in results {
                switch result {
                case .success(let bytes):
                    await session.addPiece(id, piece: piece, bytes)
                    handed[piece] = (seed, clock.now)
                case .failure(let failure):
                    guard !Task.isCancelled else { return }
                    failures[seed, default: 0] += 1
                    if failures[seed, default: 0] >= Self.mostFailures {
                        usable.removeAll { $0 == seed }
                        let why = ReasonText.failure(failure.reason)
                        await reports.notice(.text("web seed \(TerminalText.sanitize(seed)) is not used: \(why)"))
                    }
                }
            }
        }
    }

    /// One piece's bytes from `seed`: each file's part of it with a range request.
    private func fetch(_ piece: Int, of layout: WebSeedLayout, from seed: String) async -> Result<
        [UInt8], TransferFailure
    > {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(layout.range(ofPiece: piece).count)
        do {
            for slice in layout.slices(ofPiece: piece) {
                if layout.files[slice.file].isPad {
                    bytes += [UInt8](repeating: 0, count: slice.range.count)
                    continue
                }
                let file = layout.files[slice.file]
                bytes += try await fetch(slice, size: file.size, url: layout.url(of: slice.file, at: seed))
            }
            return .success(bytes)
        } catch let failure as TransferFailure {
            return .failure(failure)
        } catch {
            return .failure(TransferFailure(.other("\(error)")))
        }
    }

    private func fetch(_ slice: WebSeedLayout.Slice, size: Int64, url: String) async throws -> [UInt8] {
        // Through the download's proxies and the host's headers, with none of the torrent's own.
        let target = TransferTarget(
            url: url, proxy: download.request.proxy, proxies: http.proxies, hosts: http.hosts)
        let response = try await http.policy.send(target, range: slice.range, from: url, over: http.transport)
        // Exactly the bytes asked for, of a file of the torrent's size for it.
        switch RangeResponseCheck.check(response.head, asked: slice.range, total: size, etag: nil, lastModified: nil) {
        case .accepted: break
        case .fileChanged:
            response.drop()
            throw TransferFailure(.other("the file there is not the torrent's (another size)"), isTransient: false)
        case .wrongRange(let reason):
            response.drop()
            throw TransferFailure(reason)
        case .refused(let failure):
            response.drop()
            throw failure
        }
        let body = CollectedBody(limit: slice.range.count)
        try await response.writeWhole(to: body, at: slice.range.lowerBound)
        let collected = body.collected
        guard collected.count == slice.range.count else {
            throw TransferFailure(.other("the answer was cut short"))
        }
        return collected
    }
}
