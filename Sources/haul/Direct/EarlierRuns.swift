import HaulCore

/// What earlier runs of `haul URL…` left in a folder, looked up by a URL a command names: the
/// download of that URL, and the downloads that URL became. A URL that served a Metalink became
/// its files, one that served a torrent file became the torrent, and a link given anew by
/// `haul refresh` keeps the old one; each names that URL as its first previous one.
///
/// What a URL became may be in folders below the one it was added in (a Metalink's names with
/// folders), so it is found by the URL and then by folder, at or below the command's.
struct EarlierRuns {
    private var unfinished: [String: Download] = [:]
    private var finished: [String: Download] = [:]
    /// By the URL they came from.
    private var became: [String: [Download]] = [:]
    /// What a URL became that was finished and whose file is gone since, by that URL.
    private var becameAndGone: [String: [Download]] = [:]

    /// `known`: the state's downloads. A finished download counts only while its file is still
    /// where it was put (`fileExists`); one whose file is gone is fetched again.
    init(_ known: [Download], fileExists: (String) -> Bool) {
        for d in known {
            let present = d.state != .finished || d.path.map(fileExists) == true
            if let first = d.previousURLs.first {
                if present {
                    became[first, default: []].append(d)
                } else {
                    becameAndGone[first, default: []].append(d)
                }
            }
            let key = Self.key(d.directory, d.url)
            if d.state != .finished {
                unfinished[key] = d
            } else if present {
                finished[key] = d
            }
        }
    }

    /// A URL in a folder, as the downloads of one command line are told apart.
    static func key(_ directory: String, _ url: String) -> String { directory + "\n" + url }

    /// The downloads an earlier run of `request` left, none when it is new. Of its own URL: the
    /// unfinished one, or else the finished one under the name asked for now (another `-o`
    /// fetches another copy). Of what the URL became: all, whatever the name asked for, as the
    /// first run named them from what the server sent.
    func left(by request: DownloadRequest) -> [Download] {
        let key = Self.key(request.directory, request.url)
        var found: [Download] = []
        if let own = unfinished[key] {
            found.append(own)
        } else if let own = finished[key], own.requestedName == request.requestedName {
            found.append(own)
        }
        for d in became[request.url] ?? []
        where d.url != request.url && PathText.isAtOrBelow(d.directory, request.directory) {
            found.append(d)
        }
        return found
    }

    /// What `request`'s URL became that an earlier run finished and whose file is gone since (a
    /// Metalink's file deleted): each is fetched again as it was, so the files the URL gave are
    /// all there again and none twice.
    func gone(by request: DownloadRequest) -> [Download] {
        (becameAndGone[request.url] ?? []).filter {
            $0.url != request.url && PathText.isAtOrBelow($0.directory, request.directory)
        }
    }
}
