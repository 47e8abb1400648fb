/// The hosts whose small files share one HTTP/2 connection (see ``ConnectionPlaces``), learnt
/// from their answers: a host shares once it has answered over HTTP/2, for as long as its latest
/// answer was a small file.
public struct SharedHosts: Sendable, Equatable {
    /// A file of a known size above this takes a place of its own: large files on one
    /// connection would share its bandwidth, and `-j` is how a user keeps them few.
    public static let smallFileLimit: Int64 = 1 << 20
    /// The most hosts remembered; past it everything learnt is forgotten and learnt again.
    static let capacity = 1024

    /// By host (``origin(of:)``): whether its latest answer was a small file.
    private var latestWasSmall: [String: Bool] = [:]

    public init() {}

    public var isEmpty: Bool { latestWasSmall.isEmpty }

    /// Learns from an answer to a request for `url`: whether it came as a stream of an HTTP/2
    /// connection, and the size of its file when known. True when the host's sharing changed.
    @discardableResult
    public mutating func answered(_ url: String, multiplexed: Bool, size: Int64?) -> Bool {
        guard multiplexed || !latestWasSmall.isEmpty, let origin = Self.origin(of: url) else { return false }
        let was = latestWasSmall[origin]
        guard multiplexed else {
            latestWasSmall[origin] = nil
            return was == true
        }
        if latestWasSmall.count >= Self.capacity, was == nil { latestWasSmall = [:] }
        let small = Self.isSmall(size)
        latestWasSmall[origin] = small
        return (was == true) != small
    }

    /// The host a download of `url` (of `size`, when known) shares a connection of; nil when it
    /// takes a place of its own.
    public func sharedHost(_ url: String, size: Int64?) -> String? {
        guard !latestWasSmall.isEmpty, Self.isSmall(size), let origin = Self.origin(of: url),
            latestWasSmall[origin] == true
        else { return nil }
        return origin
    }

    /// Whether downloads of `origin` (``origin(of:)``) that are small files share its connection.
    public func shares(_ origin: String) -> Bool { latestWasSmall[origin] == true }

    /// The host whose shared connection `download` rides; nil for one that takes a place of its
    /// own: a torrent, or a large file (only a file larger than a piece is fetched in pieces).
    public func sharedHost(of download: Download) -> String? {
        guard !latestWasSmall.isEmpty, !download.isTorrent else { return nil }
        return sharedHost(download.url, size: download.totalBytes)
    }

    /// A file of unknown size counts as small until its answer says otherwise.
    public static func isSmall(_ size: Int64?) -> Bool { size.map { $0 <= smallFileLimit } ?? true }

    /// What a connection is made to: `scheme://authority` of `url`, lowercased, without a user
    /// name; nil unless `url` has that form.
    public static func origin(of url: String) -> String? {
        guard let separator = url.utf8.firstIndex(of: UInt8(ascii: ":")),
            url.utf8[separator...].starts(with: "://".utf8)
        else { return nil }
        let rest = url.utf8[url.utf8.index(separator, offsetBy: 3)...]
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty, separator > url.utf8.startIndex else { return nil }
        let scheme = Substring(url.utf8[..<separator])
        return scheme.lowercased() + "://" + Substring(authority).lowercased()
    }
}
