import FoundationEssentials

/// One more place a download's file is fetched from, besides its own URL: a mirror the user
/// gave, one a server named in a `Link` header, or one a Metalink document lists.
public struct DownloadSource: Codable, Sendable, Equatable, Hashable {
    /// Who named the source. Only a source the user named may receive the user's credentials.
    public enum Origin: String, Codable, Sendable, Hashable {
        /// `--mirror`, a TAB-separated URL of an input file, a further URI of `aria2.addUri`.
        case user
        /// A `Link: rel=duplicate` header (RFC 6249).
        case link
        /// A `<url>` of a Metalink document (RFC 5854).
        case metalink
    }

    public var url: String
    public var origin: Origin
    /// Lower is tried first (Metalink's `priority`, a `Link` header's `pri`); nil: after those given one.
    public var priority: Int?
    /// Bytes it served that were kept.
    public var bytes: Int64
    /// Nil while it may be used.
    public var problem: SourceProblem?
    /// Set with ``problem`` when the source served bytes that failed a hash: it is never asked again.
    public var banned: Bool

    public init(url: String, origin: Origin, priority: Int? = nil) {
        self.url = url
        self.origin = origin
        self.priority = priority
        bytes = 0
        problem = nil
        banned = false
    }

    /// Whether connections may go to it.
    public var isUsable: Bool { problem == nil }

    /// What `haul ls --json` and the details view call its state.
    public var stateName: String { banned ? "banned" : problem == nil ? "usable" : "dropped" }

    /// `sources` as a new run of the download starts with them: one dropped for a failure a later
    /// run may not meet (a 503, no connection) is tried again; one that serves another file, or
    /// was banned, stays out.
    public static func forNewRun(_ sources: [DownloadSource]) -> [DownloadSource] {
        sources.map { source in
            guard case .failed = source.problem, !source.banned else { return source }
            var again = source
            again.problem = nil
            return again
        }
    }

    /// The sources in the order they are tried: by priority, then as listed; one per URL.
    public static func ordered(_ sources: [DownloadSource], excluding primary: String) -> [DownloadSource] {
        var seen: Set<String> = [primary]
        let unique = sources.filter { seen.insert($0.url).inserted }
        return unique.enumerated().sorted { a, b in
            let (pa, pb) = (a.element.priority ?? Int.max, b.element.priority ?? Int.max)
            return pa != pb ? pa < pb : a.offset < b.offset
        }.map(\.element)
    }
}

/// Why a source is no longer used for a download.
public enum SourceProblem: Codable, Sendable, Equatable, Hashable {
    /// It serves a file of `size` bytes; the download's is `expected`.
    case sizeDiffers(size: Int64, expected: Int64)
    /// Its `Last-Modified` is not the first source's.
    case dateDiffers
    /// The bytes it sent for a range already on disk were not the same.
    case otherContent
    /// A piece it served failed its hash (Metalink piece hashes).
    case badPiece(index: Int)
    /// It failed as a single server would have: an error status, refused ranges, no connection.
    case failed(FailureReason)
    /// Its scheme is not http or https.
    case unsupportedScheme(String)

    /// A sentence part a person understands, after "dropped HOST: ".
    public var text: String {
        switch self {
        case .sizeDiffers(let size, let expected):
            return "it serves \(Formatting.bytes(size)), not the \(Formatting.bytes(expected)) of the file"
        case .dateDiffers: return "its copy has another date (Last-Modified) than the first server's"
        case .otherContent: return "it sent other bytes than the first server for the same range"
        case .badPiece(let index): return "piece \(index) it sent failed its hash"
        case .failed(let reason): return ReasonText.failure(reason)
        case .unsupportedScheme(let scheme):
            return "haul fetches only http and https, not \(TerminalText.sanitize(scheme))"
        }
    }
}
