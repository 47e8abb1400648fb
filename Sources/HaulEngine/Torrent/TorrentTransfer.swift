import HaulCore

/// A download from a BitTorrent swarm, through the engine's one libtorrent session. It runs as an
/// HTTP transfer does: the engine starts it on a task, it reports progress and its end, and a
/// cancellation (pause, cancel, quit) stops it with its resume data saved. After its files are
/// complete and verified it ends as finished and hands the torrent to the seeding watch, which
/// keeps it in the session until the seed ratio or time is reached.
struct TorrentTransfer: Transfer {
    let start: TransferStart
    let session: TorrentSession
    let store: TorrentStore
    /// What its web seeds are fetched with: the HTTP downloads' own requests.
    let webSeedHTTP: WebSeedFeeder.HTTP
    /// How often resume data is saved while pieces arrive: the most a crash makes it fetch again.
    static let resumeSaveInterval: Duration = .seconds(5)
    /// What a magnet's row says until the swarm sent the torrent's name, files and size.
    static let fetchingMetadata = Notice.text("fetching metadata")

    func run() async {
        let download = start.download
        let reports = start.reports
        let magnet: TorrentMetadata
        do {
            magnet = try TorrentMetadata(magnet: download.url)
        } catch {
            await reports.ended(.failed(TransferFailure(.other(error.message))))
            return
        }
        let infoHash = magnet.infoHash
        var source = TorrentAddition.Source.magnet(download.url)
        var metadata: TorrentMetadata?
        if let resume = store.resumeData(infoHash) {
            source = .resumeData(resume)
        } else if let torrent = store.metainfo(infoHash) {
            source = .metainfo(torrent)
            metadata = try? TorrentMetadata(torrent: torrent)
        }
        var name = download.fileName
        var rootName: String?
        if name == nil, let metadata, let own = metadata.name {
            guard let claimed = await claim(own, total: metadata.totalSize) else { return }
            name = claimed
            if claimed != own { rootName = claimed }
        }
        let settings = await session.settings
        // Until a magnet's files have a free name, they are written in a folder of their own (a
        // file of the user's by the torrent's name is never opened).
        let addition = TorrentAddition(
            source: source, directory: name == nil ? stagingFolder(infoHash) : download.directory, rootName: rootName,
            priorities: Self.priorities(download, fileCount: metadata?.fileCount ?? download.torrent?.fileCount),
            downloadLimit: download.speedLimit, uploadLimit: download.request.uploadLimit,
            peerLimit: download.connections, pex: settings.pex)
        if name == nil { await reports.notice(Self.fetchingMetadata) }
        let (events, continuation) = AsyncStream.makeStream(of: TorrentEvent.self)
        if let failure = await session.add(download.id, addition, owner: { continuation.yield($0) }) {
            await reports.ended(.failed(TransferFailure(.other("libtorrent cannot start this torrent: \(failure)"))))
            return
        }
        let seeds = Self.webSeeds(metainfo: store.metainfo(infoHash), magnet: magnet)
        if let stuck = Self.nowhereToFindPeers(
            trackers: magnet.trackers + (metadata?.trackers ?? []), webSeeds: seeds, settings: settings)
        {
            await reports.notice(stuck)
        }
        let refusals = WebSeedFeeder.Refusals()
        let feeder = WebSeedFeeder(
            id: download.id, session: session, seeds: seeds, http: webSeedHTTP, download: download, reports: reports,
            refusals: refusals)
        let feeding = seeds.isEmpty ? nil : Task { await feeder.run() }
        var run = TorrentRun(
            transfer: self, name: name, facts: download.torrent ?? TorrentFacts(infoHash: infoHash),
            fileCount: metadata?.fileCount, refusals: refusals)
        let saver = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.resumeSaveInterval)
                _ = await session.saveResumeData(download.id, onlyIfModified: true)
            }
        }
        let finished = await withTaskCancellationHandler {
            await run.follow(events)
        } onCancel: {
            continuation.finish()
        }
        saver.cancel()
        feeding?.cancel()
        if finished {
            await seedOrStop(run)
        } else {
            await stop()
        }
    }

    /// What the row says when nothing can find the torrent a peer: it names no tracker and no web
    /// seed, and neither DHT nor local discovery is on (peer exchange needs a first peer). It
    /// would otherwise wait without a word.
    static func nowhereToFindPeers(trackers: [String], webSeeds: [String], settings: TorrentSettings) -> Notice? {
        guard trackers.isEmpty, webSeeds.isEmpty, !settings.dht, !settings.lsd else { return nil }
        return .text("no peer can be found: it names no tracker and DHT is off ('haul torrents --dht on')")
    }

    /// The http(s) web seeds (BEP 19) of the torrent file and the magnet link (`ws=`), each once.
    static func webSeeds(metainfo: [UInt8]?, magnet: TorrentMetadata) -> [String] {
        let named = (metainfo.flatMap { try? TorrentMetadata(torrent: $0) }?.webSeeds ?? []) + magnet.webSeeds
        var seen = Set<String>()
        return named.filter { url in
            let scheme = url.prefix { $0 != ":" }.lowercased()
            return (scheme == "http" || scheme == "https") && seen.insert(url).inserted
        }
    }

    /// One priority per file for the choice the download has now (resume data keeps the choice of
    /// its last save, which `haul files` may have changed since); nil while the files are unknown.
    static func priorities(_ download: Download, fileCount: Int?) -> [UInt8]? {
        guard let count = fileCount, count > 0 else { return nil }
        return download.request.selectedFiles?.priorities(count: count) ?? [UInt8](repeating: 4, count: count)
    }

    /// Where a magnet's files are written until they are named: a hidden folder in the download
    /// folder (the same file system, so the move is a rename).
    func stagingFolder(_ infoHash: String) -> String {
        Download.path(of: ".haul-\(infoHash)", in: start.download.directory)
    }

    /// A free name for the torrent's root (its file, or its folder), made safe; nil when the run is stale.
    func claim(_ own: String, total: Int64?) async -> String? {
        let safe = FileNameSanitizer.sanitize(own) ?? "torrent-\(start.download.id)"
        return await start.reports.claimName(safe, total: total, keepingPart: nil)
    }

    /// Saves the resume data of a stopped run and takes the torrent out of the session.
    private func stop() async {
        let id = start.download.id
        _ = await saveResumeData(onlyIfModified: false)
        await session.remove(id)
    }

    /// Asks for resume data and writes it to the state folder; waits for it at most a few seconds.
    func saveResumeData(onlyIfModified: Bool) async -> Bool {
        await Self.saveResumeData(of: start.download, session: session, store: store, onlyIfModified: onlyIfModified)
    }

    /// The resume data of a torrent that just finished, asked again until it has every wanted
    /// file whole, for a few seconds at most. libtorrent calls a torrent finished once every
    /// wanted piece passed its check, but counts a piece in its resume data only once it is also
    /// written: data asked in between leaves the last pieces out, and the next run (to seed, or
    /// `haul files`) would take them for missing.
    func saveResumeDataOfAFinishedTorrent(selection: FileSelection?) async {
        let infoHash = TorrentRun.infoHash(start.download)
        for _ in 0..<Self.finishedSaveTries {
            _ = await saveResumeData(onlyIfModified: false)
            let files = TorrentDetails(stored: store, infoHash: infoHash, selection: selection)?.files ?? []
            if files.allSatisfy({ !$0.selected || $0.done == $0.size }) { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Tries of ``saveResumeDataOfAFinishedTorrent(selection:)``, 100 ms apart.
    static let finishedSaveTries = 30

    /// The same for any torrent in `session`; its events go to this call from now on.
    static func saveResumeData(
        of download: Download, session: TorrentSession, store: TorrentStore, onlyIfModified: Bool
    ) async -> Bool {
        let id = download.id
        let (events, continuation) = AsyncStream.makeStream(of: TorrentEvent.self)
        guard
            let earlier = await session.saveResumeData(
                id, onlyIfModified: onlyIfModified, answeringTo: { continuation.yield($0) })
        else { return false }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(5))
            continuation.finish()
        }
        defer { timeout.cancel() }
        // The answers to requests made before this one come first (a periodic save's, taken
        // before the last piece): each is kept, newer than what is on disk, but only this
        // request's answer ends the wait.
        var answers = 0
        for await event in events {
            switch event {
            case .resumeData(let bytes):
                let kept = store.keepResumeData(bytes, infoHash: TorrentRun.infoHash(download))
                answers += 1
                if answers > earlier { return kept }
            case .resumeDataFailed:
                answers += 1
                if answers > earlier { return false }
            default: continue
            }
        }
        return false
    }

    /// After completion: seeds until the ratio or time is reached (not at all on a metered
    /// network), reporting to the engine; then takes the torrent out of the session.
    private func seedOrStop(_ run: TorrentRun) async {
        let id = start.download.id
        // Whole resume data, every piece in it: seeding that starts later (in the next daemon,
        // off a metered network, or resumed by the user) adds the torrent from it.
        _ = await saveResumeData(onlyIfModified: false)
        let settings = await session.settings.seeding(toward: start.download.request.seedGoal)
        guard settings.seeds, !start.throttle.isMetered else {
            await session.remove(id)
            return
        }
        let (download, session, store) = (start.download, session, store)
        let watch = SeedingWatch(
            id: id, session: session, settings: settings, size: run.wanted, facts: run.facts, reports: start.reports,
            keepResumeData: {
                _ = await Self.saveResumeData(of: download, session: session, store: store, onlyIfModified: false)
            })
        await session.reassign(id, to: { event in Task { await watch.handle(event) } })
        await watch.begin()
    }
}
