import FoundationEssentials
import HaulCore
import HaulStore

/// What the engine keeps for torrents: the libtorrent session (made when the first torrent
/// starts, so a haul that fetches only over HTTP opens no BitTorrent port) and the finished
/// torrents that seed.
struct TorrentState {
    var session: TorrentSession?
    var seeders: [DownloadID: SeedingWatch] = [:]
    /// Whether the session's settings were last applied on a metered network.
    var meteredApplied = false
    /// The global download limit last handed to the session (the one in force now: window and
    /// metered cap included).
    var downloadLimitApplied: Int64?
}

extension Engine {
    /// Where torrents keep their `.torrent` and resume data: beside the state file.
    nonisolated var torrentStore: TorrentStore { TorrentStore(statePath: configuration.statePath) }

    /// The session, started now when none runs.
    func torrentSession() -> TorrentSession {
        if let session = torrents.session { return session }
        let session = TorrentSession(settings: effectiveTorrentSettings)
        session.startWaiting()
        torrents.session = session
        applyTorrentSettings()
        return session
    }

    /// The saved settings as they hold now: on a metered network DHT goes quiet.
    var effectiveTorrentSettings: TorrentSettings {
        var torrentSettings = settings.torrents ?? TorrentSettings()
        if bandwidth.meteredCounter.isCounting { torrentSettings.dht = false }
        return torrentSettings
    }

    /// Hands the session the settings and the global limits after either changed.
    func applyTorrentSettings() {
        guard let session = torrents.session else { return }
        torrents.meteredApplied = bandwidth.meteredCounter.isCounting
        let torrentSettings = effectiveTorrentSettings
        let limit = networkStatus.rateInForce.flatMap { $0 > 0 ? $0 : nil }
        torrents.downloadLimitApplied = networkStatus.rateInForce
        Task { await session.apply(torrentSettings, downloadLimit: limit, uploadLimit: torrentSettings.uploadLimit) }
        if bandwidth.meteredCounter.isCounting { stopSeeding(forGood: false, where: { _ in true }) }
    }

    /// Hands a torrent's own limits (rates, peers) to the session, which applies them at once to a
    /// torrent that runs or seeds.
    func applyTorrentLimits(_ download: Download) {
        guard download.isTorrent, let session = torrents.session else { return }
        let (down, up, peers) = (download.speedLimit, download.request.uploadLimit, download.connections)
        Task { await session.setLimits(download.id, download: down, upload: up, peers: peers) }
    }

    /// Gives torrents among `ids` their own seed goal (`goal`'s parts over theirs); one that
    /// seeds now follows it at once. Answers the torrents.
    func setSeedGoal(_ ids: [DownloadID], _ goal: SeedGoal) -> [DownloadID] {
        let torrentIDs = ids.filter { downloads[$0]?.isTorrent == true }
        for id in torrentIDs {
            guard var download = downloads[id] else { continue }
            let merged = (download.request.seedGoal ?? SeedGoal()).merged(with: goal)
            guard merged != download.request.seedGoal else { continue }
            download.request.seedGoal = merged
            downloads[id] = download
            if let watch = torrents.seeders[id] {
                let settings = (settings.torrents ?? TorrentSettings()).seeding(toward: merged)
                Task { await watch.follow(settings) }
            }
            changed(download)
        }
        return torrentIDs
    }

    /// A running torrent's numbers: its size once known, its swarm and its uploads.
    func transferTorrentChanged(_ id: DownloadID, _ generation: UInt64, total: Int64?, facts: TorrentFacts) {
        guard var download = current(id, generation) else { return }
        let before = download
        if let total {
            download.totalBytes = total
            if download.notice == TorrentTransfer.fetchingMetadata { download.notice = nil }
        }
        download.torrent = facts
        guard download != before else { return }
        downloads[id] = download
        changed(download)
    }

    /// A finished torrent seeds (`watch`) or has stopped seeding (nil).
    func torrentSeeding(_ id: DownloadID, _ facts: TorrentFacts, watch: SeedingWatch?) {
        if let watch { torrents.seeders[id] = watch } else { torrents.seeders[id] = nil }
        guard var download = downloads[id], download.state == .finished, download.torrent != facts else { return }
        download.torrent = facts
        downloads[id] = download
        changed(download)
    }

    /// Stops the seeding of the finished torrents `isIncluded` names (see ``SeedingWatch/stop(forGood:)``).
    func stopSeeding(forGood: Bool, where isIncluded: (DownloadID) -> Bool) {
        for (id, watch) in torrents.seeders where isIncluded(id) {
            torrents.seeders[id] = nil
            Task { await watch.stop(forGood: forGood) }
        }
    }

    /// The user paused a finished torrent: whether it seeds now or not, no later run seeds it.
    func endSeeding(_ id: DownloadID) {
        guard var download = downloads[id], download.state == .finished, let facts = download.torrent,
            facts != facts.pausedByHand
        else { return }
        download.torrent = facts.pausedByHand
        downloads[id] = download
        changed(download)
    }

    /// The user resumed a finished torrent by its id: it seeds again until they pause it, at once
    /// in a daemon or the UI, else when one starts. One that seeds now goes on as it is; one that
    /// could not start is tried again. Returns the sentence the user is told when it cannot seed
    /// (its files were moved away), which its row keeps as its notice.
    func seedAgain(_ id: DownloadID) -> String? {
        guard var download = downloads[id], download.state == .finished, let facts = download.torrent,
            torrents.seeders[id] == nil
        else { return nil }
        if let obstacle = SeedingRestart.obstacle(download, store: torrentStore) {
            seedingCannotStart(id, obstacle, announced: false)
            return "\(id) cannot seed: \(obstacle)"
        }
        if case .cannotSeed? = download.notice { download.notice = nil }
        download.torrent = facts.resumedByHand
        if download != downloads[id] {
            downloads[id] = download
            changed(download)
        }
        resumeSeeding()
        return nil
    }

    /// In a daemon or the UI: the finished torrents that owe seeding (an earlier run's end cut it
    /// short, or the user resumed them) seed on, never on a metered network. One that cannot is
    /// left finished, with a notice that says why.
    func resumeSeeding() {
        guard configuration.seedsFinishedTorrents, !bandwidth.meteredCounter.isCounting else { return }
        let torrentSettings = settings.torrents ?? TorrentSettings()
        let owing = downloads.stored.filter { d in
            d.state == .finished && d.isTorrent && torrents.seeders[d.id] == nil
                && d.torrent?.owesSeeding(
                    size: d.totalBytes, under: torrentSettings.seeding(toward: d.request.seedGoal)) == true
        }
        guard !owing.isEmpty else { return }
        let session = torrentSession()
        let store = torrentStore
        for download in owing {
            let reports = RunReports(engine: self, id: download.id, generation: 0)
            Task {
                if let obstacle = await SeedingRestart.begin(download, session: session, store: store, reports: reports)
                {
                    self.seedingCannotStart(download.id, obstacle, announced: true)
                }
            }
        }
    }

    /// A finished torrent that was to seed cannot: its row says why, and, `announced`, so does a
    /// notice event (not when the command's answer already says it).
    func seedingCannotStart(_ id: DownloadID, _ obstacle: String, announced: Bool) {
        guard var download = downloads[id], download.state == .finished else { return }
        let notice = Notice.cannotSeed(why: obstacle)
        guard download.notice != notice else { return }
        download.notice = notice
        downloads[id] = download
        if announced { publish(.notice(id, notice)) }
        changed(download)
    }

    /// Takes what the state folder keeps of a torrent when its download leaves the list.
    func forgetTorrent(_ download: Download) {
        guard download.isTorrent else { return }
        stopSeeding(forGood: true, where: { $0 == download.id })
        if let infoHash = download.torrent?.infoHash { torrentStore.forget(infoHash) }
    }

    /// Changes which files of a torrent are fetched; a running torrent changes at once.
    func selectFiles(_ id: DownloadID, _ selection: FileSelection?) async throws(InputError) -> [DownloadID] {
        guard var download = downloads[id] else { throw InputError("no download \(id)") }
        guard download.isTorrent else {
            throw InputError("\(id) is not a torrent: only a torrent's files are selected")
        }
        guard download.request.selectedFiles != selection else { return [id] }
        download.request.selectedFiles = selection
        downloads[id] = download
        changed(download)
        if let session = torrents.session, let count = download.torrent?.fileCount, count > 0 {
            let priorities = selection?.priorities(count: count) ?? [UInt8](repeating: 4, count: count)
            await session.setPriorities(id, priorities)
        }
        return [id]
    }

    /// An http(s) download's URL served a torrent: the download becomes the torrent (its URL the
    /// magnet, the address it came from kept) and is queued to start again as one. The HTTP run
    /// that found it ends without a word.
    func transferFollowedTorrent(_ id: DownloadID, _ generation: UInt64, _ metainfo: [UInt8]) -> Bool {
        guard var download = current(id, generation),
            let metadata = try? TorrentMetadata(torrent: metainfo),
            (try? torrentStore.keepMetainfo(metainfo, infoHash: metadata.infoHash)) != nil
        else { return false }
        transfers.remove(id)
        bandwidth.globalGate.setSharers(transfers.count)
        download.previousURLs.append(download.url)
        download.url = metadata.magnet
        download.finalURL = nil
        download.headers = []
        download.torrent = TorrentFacts(infoHash: metadata.infoHash)
        download.totalBytes = nil
        download.receivedBytes = 0
        _ = download.stopRunning()
        downloads[id] = download
        changed(download)
        // On disk before the torrent writes its files, which the download then names.
        journalNow([download])
        schedule()
        return true
    }

    /// Deletes a torrent's file or folder (its name was claimed free, so all in it is the torrent's).
    func deleteTorrentFiles(_ download: Download) {
        guard let path = download.path, download.fileName?.isEmpty == false else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes the `.torrent` files of new torrents before the add is answered, and gives each
    /// torrent its magnet link as its URL.
    func keepTorrents(_ requests: inout [DownloadRequest]) throws(InputError) {
        for i in requests.indices where requests[i].metainfo != nil {
            let metadata = try TorrentMetadata(torrent: requests[i].metainfo!)
            try torrentStore.keepMetainfo(requests[i].metainfo!, infoHash: metadata.infoHash)
            requests[i].metainfo = nil
        }
    }

    /// Details of a running or seeding torrent; nil for any other download.
    public func torrentDetails(_ id: DownloadID) async -> TorrentDetails? {
        guard let download = downloads[id], download.isTorrent else { return nil }
        var details: TorrentDetails?
        if let session = torrents.session { details = await session.details(id) }
        if details == nil { details = Self.storedTorrentDetails(download, statePath: configuration.statePath) }
        let goal = (settings.torrents ?? TorrentSettings()).seeding(toward: download.request.seedGoal)
        details?.seedingGoal = SeedGoal(ratio: goal.seedRatio, minutes: goal.seedMinutes)
        return details
    }

    /// A torrent's files as the state folder beside `statePath` keeps them (as of its last resume
    /// data); nil before its metadata arrived.
    public nonisolated static func storedTorrentDetails(_ download: Download, statePath: String) -> TorrentDetails? {
        TorrentDetails(
            stored: TorrentStore(statePath: statePath), infoHash: TorrentRun.infoHash(download),
            selection: download.request.selectedFiles)
    }

    /// Stops the session at shutdown: seeding ends, trackers are told.
    func closeTorrents() async {
        // Not for good: their resume data is kept, and the next daemon or UI seeds them on.
        let seeders = torrents.seeders.values
        torrents.seeders.removeAll()
        await withTaskGroup(of: Void.self) { group in
            for watch in seeders { group.addTask { await watch.stop(forGood: false) } }
        }
        guard let session = torrents.session else { return }
        torrents.session = nil
        await session.close()
    }
}
