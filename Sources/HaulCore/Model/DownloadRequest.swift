import FoundationEssentials

/// What a download is asked to be: where it comes from, where it goes, and every option it was
/// given. One value from the door to the transfer: a door (a command, the UI, an RPC client, a
/// Metalink) builds it, the engine's add path resolves and checks it once, the download keeps it
/// whole (``Download/request``, stored in the state file by the download's schema), and a
/// transfer reads it from there.
///
/// A new per-download option is a property here, its line in the download's schema, the door
/// that parses it and the one place that uses it.
public struct DownloadRequest: Sendable, Equatable {
    /// The URL asked for. Resumes start here again, not at a redirect target.
    public var url: String
    /// Absolute directory the file lands in. In a request not yet added, empty means none was
    /// chosen: the folder rules decide, else the download directory.
    public var directory: String
    /// Whether it may use a metered network.
    public var allowMetered: Bool
    /// The options few downloads have, out of line: a request without any of them carries one
    /// empty reference (100,000 downloads are held in memory at once), and copies share them.
    private var options: OptionsBox?

    /// The options kept out of line, each at what a plain request has.
    struct Options: Equatable, Sendable {
        var requestedName: String?
        var headers: [RequestHeader] = []
        var checksum: Checksum?
        var connections: Int?
        var speedLimit: Int64?
        var cookieFile: String?
        var sources: [DownloadSource] = []
        var pieceHashes: PieceHashes?
        var ignoresMirrorHeaders = false
        var proxy: ProxyChoice?
        var login: LoginSource?
        var paused = false
        var selectedFiles: FileSelection?
        var uploadLimit: Int64?
        var seedGoal: SeedGoal?
        var tries: Int?
        var metainfo: [UInt8]?
    }

    /// Immutable, so shared between copies of a request; a change makes a new one.
    final class OptionsBox: Equatable, Sendable {
        let value: Options
        init(_ value: Options) { self.value = value }
        static func == (a: OptionsBox, b: OptionsBox) -> Bool { a === b || a.value == b.value }
    }

    public init(
        url: String, directory: String, requestedName: String? = nil, headers: [RequestHeader] = [],
        checksum: Checksum? = nil, allowMetered: Bool = false, paused: Bool = false, connections: Int? = nil,
        speedLimit: Int64? = nil, cookieFile: String? = nil
    ) {
        self.url = url
        self.directory = directory
        self.allowMetered = allowMetered
        let options = Options(
            requestedName: requestedName, headers: headers, checksum: checksum, connections: connections,
            speedLimit: speedLimit, cookieFile: cookieFile, paused: paused)
        self.options = options == Options() ? nil : OptionsBox(options)
    }

    private var current: Options { options?.value ?? Options() }

    private mutating func change(_ change: (inout Options) -> Void) {
        var value = current
        change(&value)
        options = value == Options() ? nil : OptionsBox(value)
    }

    /// The file name asked for (`-o`, aria2's `out`); the final name is claimed when the transfer
    /// starts, unique in the directory.
    public var requestedName: String? {
        get { options?.value.requestedName }
        set { change { $0.requestedName = newValue } }
    }
    /// Headers sent with each request to the URL's host (never to a mirror a server named).
    public var headers: [RequestHeader] {
        get { options?.value.headers ?? [] }
        set { change { $0.headers = newValue } }
    }
    /// The digest the finished file must have, checked before it gets its final name.
    public var checksum: Checksum? {
        get { options?.value.checksum }
        set { change { $0.checksum = newValue } }
    }
    /// Most connections to fetch it over; nil: the per-host or saved default.
    public var connections: Int? {
        get { options?.value.connections }
        set { change { $0.connections = newValue } }
    }
    /// Its own speed limit in bytes per second, on top of the global one; nil for none.
    public var speedLimit: Int64? {
        get { options?.value.speedLimit }
        set { change { $0.speedLimit = newValue } }
    }
    /// A cookies.txt file (absolute) its requests carry the cookies of; nil: the saved default.
    public var cookieFile: String? {
        get { options?.value.cookieFile }
        set { change { $0.cookieFile = newValue } }
    }
    /// Further places the file is fetched from besides ``url``, with what each served and why
    /// one is no longer used; kept so a resumed download uses them again.
    public var sources: [DownloadSource] {
        get { options?.value.sources ?? [] }
        set { change { $0.sources = newValue } }
    }
    /// Hashes of the file's pieces (from a Metalink): a piece that fails its hash is fetched again.
    public var pieceHashes: PieceHashes? {
        get { options?.value.pieceHashes }
        set { change { $0.pieceHashes = newValue } }
    }
    /// `--no-mirrors`: mirrors and checksums that servers name in headers are not used.
    public var ignoresMirrorHeaders: Bool {
        get { options?.value.ignoresMirrorHeaders ?? false }
        set { change { $0.ignoresMirrorHeaders = newValue } }
    }
    /// `--proxy`: its own proxy, or none; nil follows the host rules, the saved global proxy and
    /// the environment.
    public var proxy: ProxyChoice? {
        get { options?.value.proxy }
        set { change { $0.proxy = newValue } }
    }
    /// Where the login for the URL's host comes from, set by whoever adds a URL a person or a
    /// client named (`haul add`, the UI, `aria2.addUri`): nil for URLs a server or a Metalink
    /// named. The add path turns it into the URL's credentials and clears it, so a stored
    /// download never has one; never used for a mirror or a redirect to another host.
    public var login: LoginSource? {
        get { options?.value.login }
        set { change { $0.login = newValue } }
    }
    /// Added paused. Only a request on its way in has it: the download's state says the rest.
    public var paused: Bool {
        get { options?.value.paused ?? false }
        set { change { $0.paused = newValue } }
    }
    /// For a torrent of several files: which to fetch (aria2's `--select-file`); nil: all.
    public var selectedFiles: FileSelection? {
        get { options?.value.selectedFiles }
        set { change { $0.selectedFiles = newValue } }
    }
    /// A torrent's own upload limit in bytes per second, on top of the global one; nil for none.
    public var uploadLimit: Int64? {
        get { options?.value.uploadLimit }
        set { change { $0.uploadLimit = newValue } }
    }
    /// A torrent's own seed ratio and time; nil: the saved ones.
    public var seedGoal: SeedGoal? {
        get { options?.value.seedGoal }
        set { change { $0.seedGoal = newValue?.isEmpty == true ? nil : newValue } }
    }
    /// The most attempts at it in all (wget's `--tries`, aria2's `max-tries`); 0: no limit; nil:
    /// the engine's (a first one and five more).
    public var tries: Int? {
        get { options?.value.tries }
        set { change { $0.tries = newValue } }
    }
    /// On its way in only: a `.torrent` file's bytes. The engine keeps them in its state folder
    /// before it answers and the download's URL becomes the torrent's magnet link.
    public var metainfo: [UInt8]? {
        get { options?.value.metainfo }
        set { change { $0.metainfo = newValue } }
    }

    /// Whether it is fetched from a BitTorrent swarm (a magnet link, or a `.torrent` on its way in).
    public var isTorrent: Bool { metainfo != nil || MagnetLink.isMagnet(url) }
}

extension DownloadRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case url, directory, allowMetered, requestedName, headers, checksum, connections, speedLimit, cookieFile
        case sources, pieceHashes, ignoresMirrorHeaders, proxy, login, paused, selectedFiles, uploadLimit, metainfo
        case seedGoal, tries
    }

    /// The request as a door sends it over the socket: only what it sets.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try c.decode(String.self, forKey: .url), directory: try c.decode(String.self, forKey: .directory))
        allowMetered = try c.decodeIfPresent(Bool.self, forKey: .allowMetered) ?? false
        var o = Options()
        o.requestedName = try c.decodeIfPresent(String.self, forKey: .requestedName)
        o.headers = try c.decodeIfPresent([RequestHeader].self, forKey: .headers) ?? []
        o.checksum = try c.decodeIfPresent(Checksum.self, forKey: .checksum)
        o.connections = try c.decodeIfPresent(Int.self, forKey: .connections)
        o.speedLimit = try c.decodeIfPresent(Int64.self, forKey: .speedLimit)
        o.cookieFile = try c.decodeIfPresent(String.self, forKey: .cookieFile)
        o.sources = try c.decodeIfPresent([DownloadSource].self, forKey: .sources) ?? []
        o.pieceHashes = try c.decodeIfPresent(PieceHashes.self, forKey: .pieceHashes)
        o.ignoresMirrorHeaders = try c.decodeIfPresent(Bool.self, forKey: .ignoresMirrorHeaders) ?? false
        o.proxy = try c.decodeIfPresent(ProxyChoice.self, forKey: .proxy)
        o.login = try c.decodeIfPresent(LoginSource.self, forKey: .login)
        o.paused = try c.decodeIfPresent(Bool.self, forKey: .paused) ?? false
        o.selectedFiles = try c.decodeIfPresent(FileSelection.self, forKey: .selectedFiles)
        o.uploadLimit = try c.decodeIfPresent(Int64.self, forKey: .uploadLimit)
        o.seedGoal = try c.decodeIfPresent(SeedGoal.self, forKey: .seedGoal)
        o.tries = try c.decodeIfPresent(Int.self, forKey: .tries)
        o.metainfo = try c.decodeIfPresent(String.self, forKey: .metainfo).flatMap {
            Data(base64Encoded: $0).map { [UInt8]($0) }
        }
        options = o == Options() ? nil : OptionsBox(o)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(directory, forKey: .directory)
        if allowMetered { try c.encode(true, forKey: .allowMetered) }
        let o = current
        try c.encodeIfPresent(o.requestedName, forKey: .requestedName)
        if !o.headers.isEmpty { try c.encode(o.headers, forKey: .headers) }
        try c.encodeIfPresent(o.checksum, forKey: .checksum)
        try c.encodeIfPresent(o.connections, forKey: .connections)
        try c.encodeIfPresent(o.speedLimit, forKey: .speedLimit)
        try c.encodeIfPresent(o.cookieFile, forKey: .cookieFile)
        if !o.sources.isEmpty { try c.encode(o.sources, forKey: .sources) }
        try c.encodeIfPresent(o.pieceHashes, forKey: .pieceHashes)
        if o.ignoresMirrorHeaders { try c.encode(true, forKey: .ignoresMirrorHeaders) }
        try c.encodeIfPresent(o.proxy, forKey: .proxy)
        try c.encodeIfPresent(o.login, forKey: .login)
        if o.paused { try c.encode(true, forKey: .paused) }
        try c.encodeIfPresent(o.selectedFiles, forKey: .selectedFiles)
        try c.encodeIfPresent(o.uploadLimit, forKey: .uploadLimit)
        try c.encodeIfPresent(o.seedGoal, forKey: .seedGoal)
        try c.encodeIfPresent(o.tries, forKey: .tries)
        try c.encodeIfPresent(o.metainfo.map { Data($0).base64EncodedString() }, forKey: .metainfo)
    }
}
