import HaulCore

/// A finished torrent whose seeding the end of a run cut short seeds again when a daemon or the
/// UI starts: from its resume data (what it uploaded and how long it seeded carry on), upload
/// only, under a ``SeedingWatch`` as after its completion.
enum SeedingRestart {
    /// Puts `download` back in `session` to seed; false when it cannot: no resume data, its
    /// file or folder is gone, or libtorrent refused it.
    static func begin(
        _ download: Download, session: TorrentSession, store: TorrentStore, reports: RunReports
    ) async -> Bool {
        let infoHash = TorrentRun.infoHash(download)
        guard let resume = store.resumeData(infoHash), let path = download.path, Engine.somethingExists(at: path)
        else { return false }
        let settings = await session.settings
        let facts = download.torrent ?? TorrentFacts(infoHash: infoHash)
        // Upload only: a file the user deleted part of is never fetched again behind their back.
        let addition = TorrentAddition(
            source: .resumeData(resume), directory: download.directory, rootName: nil,
            priorities: TorrentTransfer.priorities(download, fileCount: facts.fileCount),
            downloadLimit: download.speedLimit, uploadLimit: download.request.uploadLimit, pex: settings.pex,
            uploadOnly: true)
        let watch = SeedingWatch(
            id: download.id, session: session, settings: settings, size: download.totalBytes ?? 0, facts: facts,
            reports: reports,
            keepResumeData: {
                _ = await TorrentTransfer.saveResumeData(
                    of: download, session: session, store: store, onlyIfModified: false)
            })
        guard await session.add(download.id, addition, owner: { event in Task { await watch.handle(event) } }) == nil
        else { return false }
        await watch.begin()
        return true
    }
}
