import HaulCore
import HaulHTTP

/// What is sent to a download's mirrors, and what the user is told about them.
enum MirrorRequests {
    /// The requests for `mirror`, of the download whose own requests are `target`: no cookies,
    /// and no `Authorization`, `Cookie` or `Proxy-Authorization` header ever (credentials go only
    /// to the host the user named). A mirror the user named gets the other headers too (a
    /// `User-Agent` a site insists on); one a server or a Metalink named gets none. No `If-Range`:
    /// its validators are its own server's, so its bytes are proven by size, date and overlap.
    static func target(for mirror: DownloadSource, of target: TransferTarget) -> TransferTarget {
        let headers =
            mirror.origin == .user
            ? target.headers.filter { !TransferPolicy.credentialHeaderNames.contains($0.name.lowercased()) } : []
        // The same proxies, each chosen for the mirror's own host.
        return TransferTarget(
            url: mirror.url, headers: headers, proxy: target.proxy, proxies: target.proxies, hosts: target.hosts)
    }

    /// "dropped the mirror HOST: WHY".
    static func droppedNotice(_ mirror: DownloadSource, _ problem: SourceProblem) -> Notice {
        let verb = mirror.banned ? "banned" : "dropped"
        return .text("\(verb) the source \(SourceNames.host(mirror.url)): \(problem.text)")
    }
}
