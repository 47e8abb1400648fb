import HaulCore

/// `--no-clobber` (wget's `-nc`): a URL whose file is already in its folder is not fetched. The
/// file is looked for by the name haul gives it before the server answers (`-o`'s, else the
/// URL's), as wget looks for it; a torrent's files are left to the torrent, which checks what it
/// finds.
enum NoClobber {
    /// Where a request's file lands by the name known before the server answers; nil for a torrent.
    static func plannedPath(of request: DownloadRequest) -> String? {
        guard !request.isTorrent else { return nil }
        let name = request.requestedName ?? FileNaming.suggestedName(contentDisposition: nil, url: request.url)
        return request.directory.hasSuffix("/") ? request.directory + name : request.directory + "/" + name
    }

    /// The requests to fetch, and the paths of those left alone: a file already there, or a name
    /// an earlier URL of the same list takes (the second would be a copy beside it).
    static func split(_ requests: [DownloadRequest], exists: (String) -> Bool) -> (
        fetched: [DownloadRequest], present: [String]
    ) {
        var fetched: [DownloadRequest] = []
        var present: [String] = []
        var claimed = Set<String>()
        for request in requests {
            guard let path = plannedPath(of: request) else {
                fetched.append(request)
                continue
            }
            if exists(path) || !claimed.insert(path).inserted {
                present.append(path)
            } else {
                fetched.append(request)
            }
        }
        return (fetched, present)
    }
}
