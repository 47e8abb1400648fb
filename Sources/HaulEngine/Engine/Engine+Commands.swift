import FoundationEssentials
import HaulCore
import HaulStore

#if canImport(Glibc)
    import Glibc
#endif

extension Engine {
    /// Carries out a command and returns the downloads it applied to. What it changed is on disk
    /// (the journal, synced) before it returns: an answer given is never lost to a crash.
    /// Every command is idempotent: repeating it changes nothing more.
    @discardableResult
    public func perform(_ command: EngineCommand) async throws(InputError) -> [DownloadID] {
        guard !isShutDown else { throw .engineStopped }
        let settingsBefore = settings
        downloads.beginTracking()
        let outcome: Result<[DownloadID], InputError>
        do {
            outcome = .success(try await apply(command))
        } catch {
            outcome = .failure(error)
        }
        if phase == .running { await enforceHolds() }
        keepChanges(settingsBefore: settingsBefore)
        schedule()
        return try outcome.get()
    }

    /// Journals what the command changed (downloads whole, removals, settings) in one synced
    /// write; the coalesced save that follows makes the state file catch up.
    private func keepChanges(settingsBefore: StateDocument.Settings) {
        let (written, removed) = downloads.endTracking()
        guard persistence.lock.isHeld else { return }
        persistence.journal.appendRecords(
            written, removed: removed, settings: settings == settingsBefore ? nil : settings)
    }

    private func apply(_ command: EngineCommand) async throws(InputError) -> [DownloadID] {
        switch command {
        case .add(let requests):
            let ids = try add(requests)
            if !ids.isEmpty { scheduleSave(after: configuration.transitionSaveDelay) }
            _ = startAlso(ids)
            return ids
        case .pause(let selection):
            let ids = resolve(selection)
            for id in ids { await pause(id, cause: .user) }
            return ids
        case .resume(let selection):
            let ids = resolve(selection)
            for id in ids { requeue(id) { $0.resume() } }
            _ = startAlso(ids)
            // Named by id, a finished torrent seeds again; `--all` means what waits, not what is done.
            if case .ids = selection {
                let refusals = ids.compactMap { seedAgain($0) }
                if !refusals.isEmpty { throw InputError(refusals.joined(separator: "; ")) }
            }
            return ids
        case .retry(let selection):
            let ids = resolve(selection)
            // Named by id, a finished download whose file is gone is fetched again; `--all`
            // means what failed, not every file deleted since.
            let named = if case .ids = selection { true } else { false }
            for id in ids { requeue(id) { $0.retry() || (named && Self.isGone($0) && $0.fetchAgain()) } }
            _ = startAlso(ids)
            return ids
        case .cancel(let selection):
            let ids = resolve(selection)
            for id in ids { await cancel(id) }
            return ids
        case .remove(let selection, let deleteFiles):
            let ids = resolve(selection)
            await remove(ids, deleteFiles: deleteFiles)
            return ids
        case .setConcurrency(let limit):
            guard (1...64).contains(limit) else { throw InputError("concurrency must be between 1 and 64") }
            settings.concurrency = limit
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .setMeteredMode(let mode):
            settings.meteredMode = mode
            if mode == .auto { await probeNow() }
            publishNetworkStatus()
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .setMeteredLimit(let limit):
            if let limit, limit < SpeedLimit.minimumRate {
                throw InputError(
                    "the metered speed cap must be at least \(Formatting.rate(Double(SpeedLimit.minimumRate)))")
            }
            settings.meteredLimit = limit
            publishNetworkStatus()
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .setConnections(let selection, let count):
            guard let selection else {
                guard StateDocument.Settings.connectionRange.contains(count) else {
                    throw InputError("connections must be between 1 and 32")
                }
                settings.connections = count
                for id in transfers.ids {
                    if let download = downloads[id] { transfers[id]?.connections.set(connections(for: download)) }
                }
                scheduleSave(after: configuration.transitionSaveDelay)
                return []
            }
            let ids = resolve(selection)
            if !StateDocument.Settings.connectionRange.contains(count),
                ids.contains(where: { downloads[$0]?.isTorrent == false })
            {
                throw InputError("connections must be between 1 and 32")
            }
            for id in ids {
                guard var download = downloads[id] else { continue }
                // A torrent's connections are its peers.
                let limit = download.isTorrent ? PeerLimit.from(count) : count
                guard download.connections != limit else { continue }
                download.connections = limit
                downloads[id] = download
                if download.isTorrent {
                    applyTorrentLimits(download)
                } else {
                    transfers[id]?.connections.set(count)
                }
                changed(download)
            }
            return ids
        case .refresh(let id, let url):
            return try await refresh(id, to: url)
        case .renew(let renewals):
            return try await renew(renewals)
        case .setCookieFile(let path):
            if let path { _ = try CookieFile.load(path) }
            settings.cookieFile = path
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .allowMetered(let selection, let allowed):
            let ids = resolve(selection)
            for id in ids {
                guard var download = downloads[id], download.allowMetered != allowed else { continue }
                download.allowMetered = allowed
                downloads[id] = download
                changed(download)
            }
            return ids
        case .setSpeedLimit(let limit):
            try setSpeedLimit(limit)
            return []
        case .setDownloadSpeedLimit(let selection, let rate):
            let ids = resolve(selection)
            try setSpeedLimit(rate, of: ids)
            return ids
        case .setUploadLimit(let selection, let rate):
            let ids = resolve(selection)
            try setUploadLimit(rate, of: ids)
            return ids
        case .setMeteredBudget(let budget):
            setMeteredBudget(budget)
            return []
        case .move(let selection, let place):
            let ids = resolve(selection)
            move(ids, place)
            return ids
        case .moveBefore(let id, let target):
            guard let position = downloads.place(id, before: target) else { return downloads.contains(id) ? [id] : [] }
            publish(.moved(id, to: position))
            scheduleSave(after: configuration.transitionSaveDelay)
            return [id]
        case .setRPC(let rpc):
            setRPC(rpc)
            return []
        case .setProxies(let proxies):
            let proxies = proxies?.isEmpty == true ? nil : proxies
            guard settings.proxies != proxies else { return [] }
            settings.proxies = proxies
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .setHostSettings(let hosts):
            let hosts = hosts?.rules.isEmpty == true ? nil : hosts
            guard settings.hosts != hosts else { return [] }
            settings.hosts = hosts
            applyHostSettings()
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .setTorrentSettings(let torrentSettings):
            guard settings.torrents != torrentSettings else { return [] }
            settings.torrents = torrentSettings
            applyTorrentSettings()
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .selectFiles(let id, let selection):
            return try await selectFiles(id, selection)
        case .setSeedGoal(let selection, let goal):
            return setSeedGoal(resolve(selection), goal)
        case .setHooks(let hooks):
            guard settings.hooks != hooks else { return [] }
            settings.hooks = hooks
            scheduleSave(after: configuration.transitionSaveDelay)
            return []
        case .follow(let ids):
            return startAlso(ids)
        }
    }

    /// Moves `ids` in the list; several keep their order among themselves.
    private func move(_ ids: [DownloadID], _ place: QueueMove) {
        let inListOrder = ids.sorted { (downloads[$0]?.queueOrder ?? 0) < (downloads[$1]?.queueOrder ?? 0) }
        let inTurn = place == .top || place == .down ? inListOrder.reversed() : inListOrder
        for id in inTurn {
            guard let moved = downloads.move(id, place) else { continue }
            for d in moved.changed { downloads[d.id] = d }
            publish(.moved(id, to: moved.position))
            scheduleSave(after: configuration.transitionSaveDelay)
        }
    }

    private func resolve(_ selection: DownloadSelection) -> [DownloadID] {
        switch selection {
        case .all: return downloads.ids
        case .ids(let ids): return ids.filter { downloads[$0] != nil }
        }
    }

    /// Resolves every request through the one add path (``AddPath``) before adding any, then adds
    /// them in order; `cameFrom`, the URL the requests were found at (a Metalink's), is kept as
    /// each one's first previous URL, so a command that follows that URL knows them as its own.
    func add(_ requests: [DownloadRequest], cameFrom: String? = nil) throws(InputError) -> [DownloadID] {
        var path = AddPath(environment: configuration.environment)
        var valid = try requests.map { request throws(InputError) in try path.resolve(request) }
        let infoHashes = valid.map { $0.metainfo.flatMap { try? TorrentMetadata(torrent: $0).infoHash } }
        try keepTorrents(&valid)
        var rng = SplitMix64()
        downloads.reserveCapacity(adding: valid.count)
        let now = bandwidth.wallClock.now().toTheMicrosecond
        return valid.indices.map { i in
            let request = valid[i]
            let id = DownloadID.generate(avoiding: { downloads.contains($0) }, using: &rng)
            var download = Download(
                id: id, request: request, queueOrder: downloads.takeQueueOrder(), addedAt: now)
            if request.isTorrent, let infoHash = infoHashes[i] ?? (try? TorrentMetadata(magnet: request.url))?.infoHash
            {
                download.torrent = TorrentFacts(infoHash: infoHash)
            }
            if let cameFrom { download.previousURLs = [cameFrom] }
            downloads[id] = download
            publish(.added(download))
            return id
        }
    }

    /// `haul refresh`: the download goes on from `url`; a running one starts again from it.
    private func refresh(_ id: DownloadID, to url: String) async throws(InputError) -> [DownloadID] {
        let url = try DownloadURL.validate(url)
        guard let download = downloads[id] else { throw InputError("no download \(id)") }
        guard download.state != .finished else {
            throw InputError("\(id) has finished; there is nothing left to fetch from a new link")
        }
        guard download.url != url else { throw InputError("\(id) already downloads from that address") }
        guard !download.isTorrent else {
            throw InputError("\(id) is a torrent: its info hash names it, so it has no link to renew")
        }
        guard !MagnetLink.isMagnet(url) else {
            throw InputError("a new link is an http or https URL of the same file; 'haul add' takes a magnet link")
        }
        if transfers[id] != nil {
            await stopTransfer(id)
            refreshFromDisk(id)
        }
        guard var changing = downloads[id], changing.changeLink(to: url) else { return [] }
        downloads[id] = changing
        changed(changing)
        scheduleSave(after: configuration.transitionSaveDelay)
        return [id]
    }

    /// Resolves every request through the add path before changing any download; a running
    /// download stops, keeps its bytes, and starts again with its new options.
    private func renew(_ renewals: [Renewal]) async throws(InputError) -> [DownloadID] {
        var path = AddPath(environment: configuration.environment)
        let resolved = try renewals.map { renewal throws(InputError) in
            Renewal(id: renewal.id, request: try path.resolve(renewal.request))
        }
        var renewed: [DownloadID] = []
        for renewal in resolved {
            // Tried on a copy first: a transfer is stopped only for a download that changes, and
            // the download is read again once stopping it has counted the bytes on disk.
            guard var probe = downloads[renewal.id], probe.renew(with: renewal.request) else { continue }
            if transfers[renewal.id] != nil {
                await stopTransfer(renewal.id)
                refreshFromDisk(renewal.id)
            }
            guard var download = downloads[renewal.id], download.renew(with: renewal.request) else { continue }
            if let asked = download.requestedName, let name = download.fileName, asked != name {
                renameFile(&download, toward: asked)
            }
            downloads[renewal.id] = download
            changed(download)
            renewed.append(renewal.id)
        }
        return renewed
    }

    /// Gives a download that is not running the name asked for now (or the first free one
    /// after it), renaming its `.part` without replacing anything. The rename comes before the
    /// journal: a crash between them leaves the old name with no `.part`, fetched again, never
    /// another download's bytes under this one's name. When the `.part` cannot be renamed the
    /// download keeps its name.
    private func renameFile(_ download: inout Download, toward asked: String) {
        guard let oldPart = download.partPath else { return }
        var renamed = download
        claimName(asked, for: &renamed, keepingPart: oldPart)
        guard let newPart = renamed.partPath, newPart != oldPart else { return }
        if PartFile.size(at: oldPart) != nil {
            guard case .placed = FinalPlacement.move(oldPart, to: newPart) else { return }
        }
        download = renamed
    }

    /// A finished download whose file is no longer where it was put.
    static func isGone(_ download: Download) -> Bool {
        guard download.state == .finished, let path = download.path else { return false }
        return !somethingExists(at: path)
    }

    func pause(_ id: DownloadID, cause: PauseCause) async {
        if cause == .user {
            stopSeeding(forGood: true, where: { $0 == id })
            endSeeding(id)
        }
        guard var download = downloads[id], download.pause(cause) else { return }
        downloads[id] = download
        await stopTransfer(id)
        refreshFromDisk(id)
    }

    private func requeue(_ id: DownloadID, _ change: (inout Download) -> Bool) {
        guard var download = downloads[id], change(&download) else { return }
        downloads[id] = download
        changed(download)
    }

    private func cancel(_ id: DownloadID) async {
        guard var download = downloads[id], download.cancel() else { return }
        download.notice = nil
        downloads[id] = download
        await stopTransfer(id)
        // Its file was placed while the transfer stopped: it is finished, and kept.
        if downloads[id]?.state != .finished { discardPartialData(id) }
        failedThisRun.remove(id)
        if let current = downloads[id] { changed(current) }
    }

    /// Stops and forgets `ids`, deleting their `.part`s (and files, if asked); the table and
    /// subscribers see one removal for all of them.
    private func remove(_ ids: [DownloadID], deleteFiles: Bool) async {
        var gone: [DownloadID] = []
        for id in ids {
            guard downloads[id] != nil else { continue }
            await stopTransfer(id)
            guard let download = downloads[id] else { continue }
            forgetTorrent(download)
            if download.isTorrent {
                if download.state != .finished || deleteFiles { deleteTorrentFiles(download) }
            } else if download.state == .finished {
                if deleteFiles, let path = download.path { unlink(path) }
            } else if let part = download.partPath {
                unlink(part)
            }
            gone.append(id)
        }
        guard !gone.isEmpty else { return }
        downloads.remove(Set(gone))
        for id in gone { failedThisRun.remove(id) }
        publish(gone.count == 1 ? .removed(gone[0]) : .removedMany(gone))
        scheduleSave(after: configuration.transitionSaveDelay)
    }

    /// Deletes the `.part` and forgets the validators: a retry starts afresh. The name stays
    /// (for display, and reserved); placement never overwrites if it gets taken meanwhile.
    private func discardPartialData(_ id: DownloadID) {
        guard var download = downloads[id] else { return }
        if let part = download.partPath { unlink(part) }
        if download.isTorrent {
            deleteTorrentFiles(download)
            if let infoHash = download.torrent?.infoHash { unlink(torrentStore.resumePath(infoHash)) }
        }
        download.receivedBytes = 0
        download.segments = nil
        download.etag = nil
        download.lastModified = nil
        downloads[id] = download
    }

    /// After a transfer stopped: the `.part` size is what was really received.
    func refreshFromDisk(_ id: DownloadID) {
        guard var download = downloads[id] else { return }
        if let part = download.partPath {
            download.receivedBytes = download.receivedOnDisk(partSize: PartFile.size(at: part))
        }
        download.activeConnections = nil
        downloads[id] = download
        changed(download)
    }
}
