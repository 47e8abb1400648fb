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
            let remaining = download.totalBytes.map { $0 - download.receivedBytes } ?? Self.unknownSizeHeadroom
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

    /// Free space to wait for when the size of the rest is unknown.
    static let unknownSizeHeadroom: Int64 = 16 << 20
}
