import FoundationEssentials
import HaulCore

/// What the responses to a request, redirects included, say about other copies of the file:
/// mirrors (`Link: rel=duplicate`, RFC 6249), a Metalink (`Link: rel=describedby`) and digests
/// (`Digest`, RFC 3230). Mirror networks put them on the redirect, so every hop is read.
public struct MirrorHints: Sendable, Equatable {
    /// Absolute http(s) URLs of other copies, with their `pri`.
    public var duplicates: [DownloadSource] = []
    /// Absolute URLs of Metalink documents describing the file.
    public var metalinks: [String] = []
    /// `Digest` field values.
    public var digests: [String] = []

    public init() {}

    public var isEmpty: Bool { duplicates.isEmpty && metalinks.isEmpty && digests.isEmpty }

    /// Adds what `head`, the answer from `url`, names.
    mutating func read(_ head: ResponseHead, from url: String) {
        let base = URL(string: url)
        let values = head.fields.filter { $0.name.lowercased() == "link" }.map(\.value)
        for link in LinkHeader.parse(values) {
            guard let absolute = URL(string: link.target, relativeTo: base)?.absoluteString,
                let scheme = URLParts(absolute)?.scheme, scheme == "http" || scheme == "https"
            else { continue }
            if link.isRelation("duplicate") {
                duplicates.append(DownloadSource(url: absolute, origin: .link, priority: link.priority))
            } else if link.isRelation("describedby"), Metalink.isMetalink(contentType: link.parameters["type"]) {
                metalinks.append(absolute)
            }
        }
        digests += head.fields.filter { $0.name.lowercased() == "digest" }.map(\.value)
    }
}
