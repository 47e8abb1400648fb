import HaulCore

/// A finished torrent whose seeding the end of a run cut short seeds again when a daemon or the
/// UI starts: from its resume data (what it uploaded and how long it seeded carry on), upload
/// only, under a ``SeedingWatch`` as after its completion.
enum SeedingRestart {
    /// Why `download` cannot seed, as the end of a sentence ("… cannot seed: its files are no
    /// longer at …"); nil when its file or folder and its resume data are where haul left them.
    static func obstacle(_ download: Download, store: TorrentStore) -> String? {
        if let missing = missingFiles(download) { return missing }
        return store.resumeData(TorrentRun.infoHash(download)) == nil ? noRecord : nil
    }

    /// Why `download` cannot seed when its file or folder is gone; nil when it is there.
    private static func missingFiles(_ download: Download) -> String? {
        guard let path = download.path, Engine.somethingExists(at: path) else {
            return "its files are no longer at \(TerminalText.sanitize(download.path ?? download.directory))"
        }
        return nil
    }

    private static let noRecord = "haul kept no record of its pieces"

    /// Puts `download` back in `session` to seed; returns why it cannot (see ``obstacle(_:store:)``,
    /// or libtorrent's refusal), nil once it seeds.
    static func begin(
        _ download: Download, session: TorrentSession, store: TorrentStore, reports: RunReports
    ) async -> String? {
        if let missing = missingFiles(download) { return missing }
        let infoHash = TorrentRun.infoHash(download)
        guard let resume = store.resumeData(infoHash) else { return noRecord }
        let settings = await session.settings.seeding(toward: download.request.seedGoal)
        let facts = download.torrent ?? TorrentFacts(infoHash: infoHash)
        // Upload only: a file the user deleted part of is never fetched again behind their back.
        let addition = TorrentAddition(
            source: .resumeData(resume), directory: download.directory, rootName: nil,
            priorities: TorrentTransfer.priorities(download, fileCount: facts.fileCount),
            downloadLimit: download.speedLimit, uploadLimit: download.request.uploadLimit,
            peerLimit: download.connections, pex: settings.pex, uploadOnly: true)
        let watch = SeedingWatch(
            id: download.id, session: session, settings: settings, size: download.totalBytes ?? 0, facts: facts,
            reports: reports,
            keepResumeData: {
                _ = await TorrentTransfer.saveResumeData(
                    of: download, session: session, store: store, onlyIfModified: false)
            })
        if let refusal = await session.add(
            download.id, addition, owner: { event in Task { await watch.handle(event) } })
        {
            return TerminalText.sanitize(refusal)
        }
        await watch.begin()
        return nil
    }
}
