import HaulCore

/// aria2's `followedBy` and `following` for the downloads one URL became. A URL that served a
/// Metalink became the Metalink's first file (the download a client added, under its GID) and
/// one download for each other file, each naming that URL as its first previous one, in the
/// same folder. aria2 reports the downloads a Metalink made as followed by the download that
/// fetched it; here the first of them is followed by the others, and each follows it.
struct Aria2Family: Equatable, Sendable {
    var following: DownloadID?
    var followedBy: [DownloadID] = []

    /// What groups downloads: their folder and the URL they came from.
    static func key(of d: Download) -> String? {
        d.previousURLs.first.map { d.directory + "\n" + $0 }
    }

    /// `d`'s family among `group` (the downloads of its key, in list order); nil when it has
    /// none. The first added leads: the download the URL itself was.
    static func of(_ d: Download, among group: [Download]) -> Aria2Family? {
        guard group.count > 1,
            let leader = group.min(by: { ($0.addedAt, $0.queueOrder) < ($1.addedAt, $1.queueOrder) })
        else { return nil }
        if leader.id == d.id { return Aria2Family(followedBy: group.map(\.id).filter { $0 != d.id }) }
        return Aria2Family(following: leader.id)
    }

    /// Whether a status with `keys` reports a family at all.
    static func isWanted(by keys: Set<String>?) -> Bool {
        keys.map { $0.contains("followedBy") || $0.contains("following") } ?? true
    }
}
