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
                guard let self, await self.recheckDiskSpace() else { return }
            }
        }
    }

    /// Resumes the downloads that now fit; returns whether any still wait.
    private func recheckDiskSpace() -> Bool {
        var stillWaiting = false
        for var download in downloads.stored where download.pauseCause?.kind == .diskFull {
            let remaining = Self.roomStillNeeded(download)
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
    /// its files take on disk (written pieces take room before they are whole and counted).
    static func roomStillNeeded(_ download: Download) -> Int64 {
        guard let total = download.totalBytes else { return unknownSizeHeadroom }
        var have = download.receivedBytes
        if download.isTorrent, let path = download.path { have = max(have, DiskSpace.allocatedBytes(at: path)) }
        return max(0, total - have)
    }

    /// Free space to wait for when the size of the rest is unknown.
    static let unknownSizeHeadroom: Int64 = 16 << 20
}
