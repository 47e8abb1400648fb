import HaulCore

/// Keeps a finished torrent seeding until the seed ratio or seed time is reached, telling the
/// engine its upload numbers; then takes it out of the session. A pause, a removal or a metered
/// network ends it sooner (the engine calls ``stop(forGood:)``).
actor SeedingWatch {
    let id: DownloadID
    let session: TorrentSession
    /// The settings that say when its seeding is over: the saved ones with its own seed goal.
    private(set) var settings: TorrentSettings
    /// The torrent's wanted bytes: what the ratio divides by.
    let size: Int64
    private var facts: TorrentFacts
    private let reports: RunReports
    /// Writes the torrent's resume data (what it uploaded, how long it seeded) to the state folder.
    private let keepResumeData: @Sendable () async -> Void
    private var stopped = false

    init(
        id: DownloadID, session: TorrentSession, settings: TorrentSettings, size: Int64, facts: TorrentFacts,
        reports: RunReports, keepResumeData: @escaping @Sendable () async -> Void
    ) {
        self.id = id
        self.session = session
        self.settings = settings
        self.size = size
        self.facts = facts
        self.reports = reports
        self.keepResumeData = keepResumeData
    }

    func begin() async {
        facts.seeding = true
        await reports.seeding(facts, watch: self)
    }

    func handle(_ event: TorrentEvent) async {
        guard !stopped, case .status(let status) = event else { return }
        facts.uploaded = max(facts.uploaded, status.uploaded)
        facts.uploadRate = status.uploadRate
        facts.peers = status.peers
        facts.seeds = status.seeds
        if facts.seedingIsDone(size: size, seconds: status.seedingSeconds, under: settings) {
            await stop(forGood: true)
        } else {
            await reports.seeding(facts, watch: self)
        }
    }

    /// Seeds on toward a new goal; the next status from the session is checked against it.
    func follow(_ settings: TorrentSettings) {
        self.settings = settings
    }

    /// Stops seeding now: the torrent leaves the session and the row stops saying "seeding".
    /// `forGood`: the ratio or time was reached, or the user paused it; otherwise (the process
    /// ends, the network became metered) its resume data is kept and a later daemon or UI seeds
    /// it on from there.
    func stop(forGood: Bool) async {
        guard !stopped else { return }
        stopped = true
        if !forGood { await keepResumeData() }
        await session.remove(id)
        facts.seeding = false
        if forGood { facts = facts.pausedByHand }
        facts.peers = nil
        facts.seeds = nil
        facts.uploadRate = nil
        await reports.seeding(facts, watch: nil)
    }
}
