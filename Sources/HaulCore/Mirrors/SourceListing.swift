/// One source of a download as `haul ls --json` and the details view show it.
public struct SourceListing: Sendable, Equatable, Encodable {
    /// Its password hidden.
    public var url: String
    /// Bytes it served that were kept (the first source's: what the others did not serve).
    public var bytes: Int64
    /// `usable`, `dropped` or `banned`.
    public var state: String
    /// Why it is dropped or banned, as a sentence part.
    public var reason: String?

    private enum Keys: String, CodingKey { case url, bytes, state, reason }

    /// Every key written, `null` for no reason, as the rest of `haul ls --json`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(url, forKey: .url)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(state, forKey: .state)
        try container.encode(reason, forKey: .reason)
    }
}

extension Download {
    /// Where the file comes from: the URL the first response came from, then each mirror.
    public var listedSources: [SourceListing] {
        let served = request.sources.reduce(Int64(0)) { $0 + $1.bytes }
        let first = SourceListing(
            url: Redaction.url(finalURL ?? url), bytes: max(0, receivedBytes - served), state: "usable", reason: nil)
        return [first]
            + request.sources.map {
                SourceListing(
                    url: Redaction.url($0.url), bytes: $0.bytes, state: $0.stateName, reason: $0.problem?.text)
            }
    }
}

/// How sources are named in a sentence: by host, with the port when it is not the scheme's.
public enum SourceNames {
    /// `url`'s host (and port), sanitized for the terminal.
    public static func host(_ url: String) -> String {
        guard let parts = URLParts(url) else { return "a source" }
        return TerminalText.sanitize(parts.port.map { "\(parts.host):\($0)" } ?? parts.host)
    }

    /// The hosts of `urls`, each once, sorted, comma-separated.
    public static func hosts(_ urls: [String]) -> String {
        Set(urls.map(host)).sorted().joined(separator: ", ")
    }
}
