import HaulCore

/// Downloads paused for a full disk resume by themselves once there is room again.
extension Engine {
    /// Starts checking free space while any download waits for it.
    func watchDiskSpace() {
        guard watches.disk == nil else { return }
        let (interval, clock) = (configuration.diskRecheckInterval, clock)
        watches.disk = Task { [weak self] in
            while !Task.isCancelled {
                try? await clock.sleep(for: interval)
                guard let self else { return }
                // What the waiting torrents' files take, read off the actor: a torrent may have
                // many files.
                let paths = await self.waitingTorrentPaths()
                let taken =
                    paths.isEmpty ? [:] : (try? await FileWorkers.run { paths.mapValues(DiskSpace.allocatedBytes) })
                guard await self.recheckDiskSpace(taken: taken ?? [:]) else { return }
            }
        }
    }

    /// The files of each torrent waiting for room.
    private func waitingTorrentPaths() -> [DownloadID: String] {
        var paths: [DownloadID: String] = [:]
        for download in downloads.stored where download.pauseCause?.kind == .diskFull && download.isTorrent {
            if let path = download.path { paths[download.id] = path }
        }
        return paths
    }

    /// Resumes the downloads that now fit; returns whether any still wait. `taken`: what each
    /// waiting torrent's files take on disk.
    private func recheckDiskSpace(taken: [DownloadID: Int64]) -> Bool {
        var stillWaiting = false
        for var download in downloads.stored where download.pauseCause?.kind == .diskFull {
            let remaining = Self.roomStillNeeded(download, taken: taken[download.id])
            if let shortfall = DiskSpace.shortfall(writing: remaining, into: download.directory) {
                stillWaiting = true
                if download.totalBytes != nil, download.stillShortOfRoom(by: shortfall) {
                    downloads[download.id] = download
                    changed(download)
                }
                continue
            }
            download.resumeFromPolicy(.diskFull)
            downloads[download.id] = download
            changed(download)
        }
        if !stillWaiting { watches.disk = nil }
        schedule()
        return stillWaiting
    }

    /// The bytes `download` still writes: its size less what it has, which for a torrent is what
    /// its files take on disk, `taken` (written pieces take room before they are whole and counted).
    static func roomStillNeeded(_ download: Download, taken: Int64?) -> Int64 {
        guard let total = download.totalBytes else { return unknownSizeHeadroom }
        return max(0, total - max(download.receivedBytes, taken ?? 0))
    }

    /// Free space to wait for when the size of the rest is unknown.
    static let unknownSizeHeadroom: Int64 = 16 << 20
}
