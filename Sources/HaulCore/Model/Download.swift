import FoundationEssentials

/// One download: what to fetch, where it goes, and how far it got.
///
/// A plain value. The engine owns the live copies; the state file stores them (the fields and
/// their keys are listed once, in ``schema``); the UI keeps its own copies updated from
/// ``EngineEvent``s.
public struct Download: Codable, Sendable, Equatable, Identifiable {
    // The stored fields are declared in this order, and the optional numbers are kept as plain
    // numbers with a value that means "none": Swift lays fields out in the order declared, an
    // `Int64?` takes 16 bytes inside a struct, and 100,000 downloads are held in memory at once
    // (`DownloadLayoutTests` holds the size).

    public var id: DownloadID
    private var storedRetries: Int32
    /// What it was asked to be: its URL, folder and every option, as the add path resolved them.
    /// Kept whole, never copied field by field: a transfer reads its options from here.
    public var request: DownloadRequest
    /// The final file name, decided at the first response (or from `-o`); unique in ``directory``.
    public var fileName: String?
    public var receivedBytes: Int64
    private var storedTotal: Int64 = Self.none
    /// Validators of the remote file, used for `If-Range` on resume.
    public var etag: String?
    public var lastModified: String?
    /// Where the last request ended up after redirects.
    public var finalURL: String?
    /// The download's place in the list, which is the order waiting downloads start in: rises
    /// along the list (the engine keeps it so when downloads are added or moved).
    public var queueOrder: UInt64
    public var addedAt: Date
    private var storedFinish = Self.noDate
    /// What few downloads have, out of line: a download without any of it carries one empty
    /// reference (100,000 downloads are held in memory at once).
    private var extras: ExtrasBox?
    /// Changed only by the transitions (`DownloadTransitions.swift`).
    public internal(set) var state: DownloadState
    /// Whether the server honours ranges; nil until known.
    public var resumable: Bool?
    private var storedConnections: Int32 = -1

    private static let none = Int64.min
    private static let noDate = -Double.infinity

    /// Nil while unknown.
    public var totalBytes: Int64? {
        get { storedTotal == Self.none ? nil : storedTotal }
        set { storedTotal = newValue ?? Self.none }
    }
    /// Transient failures retried in a row, reset when bytes arrive.
    public var retries: Int {
        get { Int(storedRetries) }
        set { storedRetries = Int32(clamping: newValue) }
    }
    /// Connections fetching it right now (nil when none or not running).
    public var activeConnections: Int? {
        get { storedConnections < 0 ? nil : Int(storedConnections) }
        set { storedConnections = newValue.map { Int32(clamping: max(0, $0)) } ?? -1 }
    }
    public var finishedAt: Date? {
        get { storedFinish == Self.noDate ? nil : Date(timeIntervalSinceReferenceDate: storedFinish) }
        set { storedFinish = newValue?.timeIntervalSinceReferenceDate ?? Self.noDate }
    }

    /// The URL asked for (``DownloadRequest/url``). Resumes start here again, not at a redirect target.
    public var url: String {
        get { request.url }
        set { request.url = newValue }
    }
    /// The directory the file lands in (absolute).
    public var directory: String {
        get { request.directory }
        set { request.directory = newValue }
    }
    public var allowMetered: Bool {
        get { request.allowMetered }
        set { request.allowMetered = newValue }
    }
    /// Most connections to fetch it over; nil: the saved default. A torrent's are peers (see
    /// ``PeerLimit``); nil: no limit of its own.
    public var connections: Int? {
        get { request.connections }
        set { request.connections = newValue }
    }
    /// Its own speed limit in bytes per second, on top of the global one; nil for none.
    public var speedLimit: Int64? {
        get { request.speedLimit }
        set { request.speedLimit = newValue }
    }
    /// The name the user asked for with `-o`, if any.
    public var requestedName: String? {
        get { request.requestedName }
        set { request.requestedName = newValue }
    }
    public var headers: [RequestHeader] {
        get { request.headers }
        set { request.headers = newValue }
    }
    /// A cookies.txt file its requests carry the cookies of; nil: the saved default, if any.
    public var cookieFile: String? {
        get { request.cookieFile }
        set { request.cookieFile = newValue }
    }
    /// The digest the finished file must have, checked before it gets its final name.
    public var checksum: Checksum? {
        get { request.checksum }
        set { request.checksum = newValue }
    }

    /// Addresses it had before `haul refresh` gave it this one, oldest first: where it came from.
    public var previousURLs: [String] {
        get { extras?.value.previousURLs ?? [] }
        set { changeExtras { $0.previousURLs = newValue } }
    }
    /// Set by a new link until its first answer shows whether it serves the same file.
    public var linkUnchecked: Bool {
        get { extras?.value.linkUnchecked ?? false }
        set { changeExtras { $0.linkUnchecked = newValue } }
    }
    /// The most recent error, kept after a retry succeeds (for the details view). Set only by the
    /// transitions that a failure leads to (`DownloadTransitions.swift`).
    public internal(set) var lastError: FailureReason? {
        get { extras?.value.lastError }
        set { changeExtras { $0.lastError = newValue } }
    }
    /// Something the user should know: a retry coming, a start from the first byte.
    public var notice: Notice? {
        get { extras?.value.notice }
        set { changeExtras { $0.notice = newValue } }
    }
    /// While paused for a full disk: how many more bytes the rest of the file needs, as its
    /// state's cause carries it.
    public var diskShortfall: Int64? {
        guard case .paused(.diskFull(let shortfall)) = state else { return nil }
        return shortfall
    }
    /// For a download fetched over several connections: which byte ranges are on disk. Only
    /// ever what was synced to disk; nil for a download fetched over one connection, whose
    /// `.part` holds the file's first bytes.
    public var segments: [Segment]? {
        get { extras?.value.segments }
        set { changeExtras { $0.segments = newValue } }
    }

    /// For a torrent: its info hash, swarm and uploads; nil for a download over HTTP.
    public var torrent: TorrentFacts? {
        get { extras?.value.torrent }
        set { changeExtras { $0.torrent = newValue } }
    }
    /// Whether it is fetched from a BitTorrent swarm.
    public var isTorrent: Bool { MagnetLink.isMagnet(url) }

    /// The fields kept out of line, each at what a new download has.
    struct Extras: Equatable, Sendable {
        var previousURLs: [String] = []
        var linkUnchecked = false
        var lastError: FailureReason?
        var notice: Notice?
        var segments: [Segment]?
        var torrent: TorrentFacts?
    }

    /// Immutable, so shared between copies of a download; a change makes a new one.
    final class ExtrasBox: Equatable, Sendable {
        let value: Extras
        init(_ value: Extras) { self.value = value }
        static func == (a: ExtrasBox, b: ExtrasBox) -> Bool { a === b || a.value == b.value }
    }

    private mutating func changeExtras(_ change: (inout Extras) -> Void) {
        var value = extras?.value ?? Extras()
        change(&value)
        extras = value == Extras() ? nil : ExtrasBox(value)
    }

    /// A new download of `request`, waiting (or paused, when the request asks so); a request's
    /// login and paused flag are what it came in with, so the download keeps neither.
    public init(id: DownloadID, request: DownloadRequest, queueOrder: UInt64, addedAt: Date) {
        self.id = id
        var request = request
        // The final name is claimed when the transfer starts (unique in the directory), also for `-o`.
        self.state = request.paused ? .paused(by: .user) : .waiting
        request.paused = false
        request.login = nil
        self.request = request
        self.receivedBytes = 0
        self.storedRetries = 0
        self.queueOrder = queueOrder
        self.addedAt = addedAt
    }

    /// A new download from its parts (for tests and tools: the engine adds every download from a
    /// request, dated by its own clock).
    public init(
        id: DownloadID,
        url: String,
        directory: String,
        requestedName: String? = nil,
        headers: [RequestHeader] = [],
        checksum: Checksum? = nil,
        allowMetered: Bool = false,
        paused: Bool = false,
        connections: Int? = nil,
        speedLimit: Int64? = nil,
        cookieFile: String? = nil,
        queueOrder: UInt64,
        addedAt: Date = .nowToTheMicrosecond()
    ) {
        self.init(
            id: id,
            request: DownloadRequest(
                url: url, directory: directory, requestedName: requestedName, headers: headers, checksum: checksum,
                allowMetered: allowMetered, paused: paused, connections: connections, speedLimit: speedLimit,
                cookieFile: cookieFile),
            queueOrder: queueOrder, addedAt: addedAt)
    }

    /// How many connections one download may have.
    public static let connectionRange = 1...32
    /// The connections a download gets when neither it nor the settings name a number.
    public static let defaultConnections = 8

    /// The final path, once the name is known.
    public var path: String? { fileName.map { Self.path(of: $0, in: directory) } }

    /// `name` in `directory`, as a download's ``path`` is made (one `/` between them), followed
    /// by `suffix`.
    ///
    /// Built in one allocation: a transfer makes a few paths per file.
    public static func path(of name: String, in directory: String, suffix: StaticString = "") -> String {
        var directory = directory
        var name = name
        return directory.withUTF8 { d in
            name.withUTF8 { n in
                let slash = d.last != UInt8(ascii: "/")
                let count = d.count + (slash ? 1 : 0) + n.count + suffix.utf8CodeUnitCount
                return String(unsafeUninitializedCapacity: count) { out in
                    var next = out.baseAddress!
                    func copy(_ part: UnsafeBufferPointer<UInt8>) {
                        guard let base = part.baseAddress else { return }
                        next.initialize(from: base, count: part.count)
                        next += part.count
                    }
                    copy(d)
                    if slash {
                        next.initialize(to: UInt8(ascii: "/"))
                        next += 1
                    }
                    copy(n)
                    copy(UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount))
                    return count
                }
            }
        }
    }

    /// Where the bytes go while the transfer is incomplete.
    /// Nil for a torrent: its files are written in place, piece by piece, and libtorrent's resume
    /// data says which pieces are there.
    public var partPath: String? {
        isTorrent ? nil : fileName.map { Self.path(of: $0, in: directory, suffix: ".part") }
    }

    /// The bytes on disk given a `.part` of `partSize` bytes: what its segment map claims, for a
    /// segmented download, else the `.part`'s size.
    public func receivedOnDisk(partSize: Int64?) -> Int64 {
        guard let partSize else { return 0 }
        if let segments { return segments.received }
        return partSize
    }

    /// Who paused it, while paused.
    public var pauseCause: PauseCause? { state.pauseCause }

    /// Why it failed, once failed.
    public var failureReason: FailureReason? { state.failureReason }

    /// A short human reason for the current state, or nil when there is nothing to say.
    public var reason: String? { state.reason }

    /// Failed as an expired link fails (401, 403, 404, 410): a new link (`haul refresh`) may
    /// save its bytes.
    public var mayNeedNewLink: Bool { state.mayNeedNewLink }

    /// Paused by a policy (a network hold, a full disk): it resumes by itself.
    public var isHeld: Bool { state.isHeld }

    /// The name to show: the final name, else the user's, else what the URL suggests, else the URL.
    public var displayName: String {
        fileName ?? requestedName ?? FileNaming.nameFromURL(url).flatMap(FileNameSanitizer.sanitize)
            ?? torrent.map { "torrent \($0.infoHash.prefix(12))" } ?? Redaction.url(url)
    }
}
