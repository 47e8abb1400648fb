import FoundationEssentials

/// Every stored field of a ``Download``, by the key it is stored under, with how its value is read
/// and set: the one list its `Codable` form, the state file's one-pass reader and writer
/// (HaulStore) and the socket go by.
///
/// Adding a field to a download (or an option to its request) is a property on `Download` (or
/// `DownloadRequest`) and one line here; the schema tests
/// fail when a stored property has no line. Only the identity is required: fields added later
/// must read from older files, so a missing one keeps the value a new download starts with.
extension Download {
    public static let schema: [any DownloadFieldProtocol] = [
        DownloadField("id", required: true, get: { $0.id }, set: { $0.id = $1 }),
        // What it was asked to be (its request), each option under its own key.
        DownloadField("url", required: true, get: { $0.url }, set: { $0.url = $1 }),
        DownloadField("directory", required: true, get: { $0.directory }, set: { $0.directory = $1 }),
        DownloadField("allowMetered", get: { $0.allowMetered }, set: { $0.allowMetered = $1 }),
        DownloadField("requestedName", get: { $0.requestedName }, set: { $0.requestedName = $1 }),
        DownloadField("headers", get: { $0.headers.isEmpty ? nil : $0.headers }, set: { $0.headers = $1 }),
        DownloadField("checksum", get: { $0.checksum }, set: { $0.checksum = $1 }),
        DownloadField("connections", get: { $0.connections }, set: { $0.connections = $1 }),
        DownloadField("speedLimit", get: { $0.speedLimit }, set: { $0.speedLimit = $1 }),
        DownloadField("cookieFile", get: { $0.cookieFile }, set: { $0.cookieFile = $1 }),
        DownloadField(
            "sources", get: { $0.request.sources.isEmpty ? nil : $0.request.sources },
            set: { $0.request.sources = $1 }),
        DownloadField("pieceHashes", get: { $0.request.pieceHashes }, set: { $0.request.pieceHashes = $1 }),
        DownloadField(
            "ignoresMirrorHeaders", get: { $0.request.ignoresMirrorHeaders ? true : nil },
            set: { $0.request.ignoresMirrorHeaders = $1 }),
        DownloadField("ownProxy", get: { $0.request.proxy }, set: { $0.request.proxy = $1 }),
        DownloadField(
            "selectFile", get: { $0.request.selectedFiles }, set: { $0.request.selectedFiles = $1 }),
        DownloadField("uploadLimit", get: { $0.request.uploadLimit }, set: { $0.request.uploadLimit = $1 }),
        DownloadField("ownSeeding", get: { $0.request.seedGoal }, set: { $0.request.seedGoal = $1 }),
        DownloadField("tries", get: { $0.request.tries }, set: { $0.request.tries = $1 }),
        // How far it got.
        DownloadField("fileName", get: { $0.fileName }, set: { $0.fileName = $1 }),
        DownloadField("state", get: { $0.state.kind }, setPart: { $0.kind = $1 }),
        DownloadField("pauseCause", get: { $0.state.pauseCause?.kind }, setPart: { $0.pauseCause = $1 }),
        DownloadField("diskShortfall", get: { $0.diskShortfall }, setPart: { $0.diskShortfall = $1 }),
        DownloadField(
            "budgetUse",
            get: { d -> BudgetUse? in
                guard case .paused(.budget(let use)) = d.state else { return nil }
                return use
            }, setPart: { $0.budgetUse = $1 }),
        DownloadField(
            "heldUntil",
            get: { d -> Int? in
                guard case .paused(.schedule(let minute)) = d.state else { return nil }
                return minute
            }, setPart: { $0.heldUntil = $1 }),
        DownloadField("failureReason", get: { $0.state.failureReason }, setPart: { $0.failureReason = $1 }),
        DownloadField("receivedBytes", get: { $0.receivedBytes }, set: { $0.receivedBytes = $1 }),
        DownloadField("totalBytes", get: { $0.totalBytes }, set: { $0.totalBytes = $1 }),
        DownloadField("etag", get: { $0.etag }, set: { $0.etag = $1 }),
        DownloadField("lastModified", get: { $0.lastModified }, set: { $0.lastModified = $1 }),
        DownloadField("resumable", get: { $0.resumable }, set: { $0.resumable = $1 }),
        DownloadField("finalURL", get: { $0.finalURL }, set: { $0.finalURL = $1 }),
        DownloadField("retries", get: { $0.retries }, set: { $0.retries = $1 }),
        DownloadField("activeConnections", get: { $0.activeConnections }, set: { $0.activeConnections = $1 }),
        DownloadField("queueOrder", get: { $0.queueOrder }, set: { $0.queueOrder = $1 }),
        DownloadField("addedAt", get: { $0.addedAt }, set: { $0.addedAt = $1 }),
        DownloadField("finishedAt", get: { $0.finishedAt }, set: { $0.finishedAt = $1 }),
        DownloadField(
            "previousURLs", get: { $0.previousURLs.isEmpty ? nil : $0.previousURLs }, set: { $0.previousURLs = $1 }),
        DownloadField("linkUnchecked", get: { $0.linkUnchecked ? true : nil }, set: { $0.linkUnchecked = $1 }),
        DownloadField("lastError", get: { $0.lastError }, set: { $0.lastError = $1 }),
        // An older haul kept a hold's words in the notice: they are read into the pause's cause.
        DownloadField(
            "notice", get: { $0.notice },
            setDraft: { draft, notice in
                if notice.isHold { draft.state.legacyHold = notice } else { draft.download.notice = notice }
            }),
        DownloadField("segments", get: { $0.segments }, set: { $0.segments = $1 }),
        DownloadField("torrent", get: { $0.torrent }, set: { $0.torrent = $1 }),
    ]

    /// What a download read from a file starts as, before its fields are read: what a missing
    /// field means.
    public static var unread: Download {
        Download(
            id: DownloadID(rawValue: ""), url: "", directory: "", queueOrder: 0, addedAt: Date(timeIntervalSince1970: 0)
        )
    }

    /// Where files of an older haul, which knew only SHA-256, keep the expected digest.
    public static let legacySHA256Key = "sha256"

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: SchemaKey.self)
        var draft = DownloadDraft()
        for field in Self.schema { try field.decode(container, into: &draft) }
        if draft.download.checksum == nil,
            let hex = try container.decodeIfPresent(String.self, forKey: .init(stringValue: Self.legacySHA256Key))
        {
            draft.download.checksum = try? Checksum(.sha256, hex: hex)
        }
        self = draft.finished
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SchemaKey.self)
        for field in Self.schema { try field.encode(self, into: &container) }
    }
}

/// A stored field of a download, whatever its value's type: its key, and its value as `Codable`
/// reads and writes it.
public protocol DownloadFieldProtocol: Sendable {
    var key: String { get }
    /// Whether a download without it cannot be read (only the identity is).
    var isRequired: Bool { get }
    func decode(_ container: KeyedDecodingContainer<SchemaKey>, into draft: inout DownloadDraft) throws
    func encode(_ download: Download, into container: inout KeyedEncodingContainer<SchemaKey>) throws
    /// Hands the field to `visitor` with its value's type known (a coder builds its own
    /// per-field code from the schema so).
    func accept<Visitor: DownloadFieldVisitor>(_ visitor: inout Visitor)
}

/// Visits the schema's fields with their value types (see ``DownloadFieldProtocol/accept(_:)``).
public protocol DownloadFieldVisitor {
    mutating func visit<Value>(_ field: DownloadField<Value>)
}

/// A download being read: its fields so far, and the parts of its state, which become its
/// state once every key is read (they may come in any order).
public struct DownloadDraft: Sendable {
    public var download = Download.unread
    public var state = DownloadState.Parts()

    public init() {}

    /// The download read.
    public var finished: Download {
        var d = download
        d.state = state.resolved
        return d
    }
}

/// One stored field of a download: its key and where its value lives.
public struct DownloadField<Value: Codable & Sendable>: DownloadFieldProtocol {
    public let key: String
    public let isRequired: Bool
    /// The value, nil when the download leaves the field out (it is neither written nor sent).
    public let get: @Sendable (Download) -> Value?
    /// Puts a value read into the download being read.
    public let set: @Sendable (inout DownloadDraft, Value) -> Void

    /// A field of the download's state, which is read in parts (see ``DownloadDraft``).
    init(
        _ key: String, get: @escaping @Sendable (Download) -> Value?,
        setPart: @escaping @Sendable (inout DownloadState.Parts, Value) -> Void
    ) {
        self.key = key
        isRequired = false
        self.get = get
        set = { setPart(&$0.state, $1) }
    }

    /// A field read into the download being read as a whole (a value an older file kept
    /// elsewhere goes where it belongs now).
    init(
        _ key: String, get: @escaping @Sendable (Download) -> Value?,
        setDraft: @escaping @Sendable (inout DownloadDraft, Value) -> Void
    ) {
        self.key = key
        isRequired = false
        self.get = get
        set = setDraft
    }

    /// A field whose value is `get`'s (nil: left out, neither written nor sent).
    ///
    /// Closures rather than key paths: projecting a key path looks its generic metadata up at run
    /// time, and a state file of 100,000 downloads is 3 million field reads (docs/PERFORMANCE.md).
    public init(
        _ key: String, required: Bool = false, get: @escaping @Sendable (Download) -> Value?,
        set: @escaping @Sendable (inout Download, Value) -> Void
    ) {
        self.key = key
        isRequired = required
        self.get = get
        self.set = { set(&$0.download, $1) }
    }

    public func decode(_ container: KeyedDecodingContainer<SchemaKey>, into draft: inout DownloadDraft) throws {
        let codingKey = SchemaKey(stringValue: key)
        if isRequired {
            set(&draft, try container.decode(Value.self, forKey: codingKey))
        } else if let value = try container.decodeIfPresent(Value.self, forKey: codingKey) {
            set(&draft, value)
        }
    }

    public func encode(_ download: Download, into container: inout KeyedEncodingContainer<SchemaKey>) throws {
        if let value = get(download) { try container.encode(value, forKey: SchemaKey(stringValue: key)) }
    }

    public func accept<Visitor: DownloadFieldVisitor>(_ visitor: inout Visitor) { visitor.visit(self) }
}

/// A stored key of a download, for `Codable` by the schema.
public struct SchemaKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
