import Foundation

/// Every stored field of a ``Download``, by the key it is stored under: the one list its
/// `Codable` form, the state file's one-pass reader and writer (HaulStore) and the socket go by.
///
/// Adding a field to a download is a property on `Download` and one line here; the schema tests
/// fail when a stored property has no line. Only the identity is required: fields added later
/// must read from older files, so a missing one keeps the value a new download starts with.
extension Download {
    public static let schema: [any DownloadFieldProtocol] = [
        DownloadField("id", \.id, required: true),
        DownloadField("url", \.url, required: true),
        DownloadField("previousURLs", \.previousURLs, omittedWhen: { $0.isEmpty }),
        DownloadField("linkUnchecked", \.linkUnchecked, omittedWhen: { !$0 }),
        DownloadField("directory", \.directory, required: true),
        DownloadField("requestedName", optional: \.requestedName),
        DownloadField("fileName", optional: \.fileName),
        DownloadField("state", get: { $0.state.kind }, set: { $0.kind = $1 }),
        DownloadField("pauseCause", get: { $0.state.pauseCause }, set: { $0.pauseCause = $1 }),
        DownloadField("failureReason", get: { $0.state.failureReason }, set: { $0.failureReason = $1 }),
        DownloadField("receivedBytes", \.receivedBytes),
        DownloadField("totalBytes", optional: \.totalBytes),
        DownloadField("headers", \.headers, omittedWhen: { $0.isEmpty }),
        DownloadField("cookieFile", optional: \.cookieFile),
        DownloadField("checksum", optional: \.checksum),
        DownloadField("allowMetered", \.allowMetered),
        DownloadField("etag", optional: \.etag),
        DownloadField("lastModified", optional: \.lastModified),
        DownloadField("resumable", optional: \.resumable),
        DownloadField("finalURL", optional: \.finalURL),
        DownloadField("retries", \.retries),
        DownloadField("lastError", optional: \.lastError),
        DownloadField("notice", optional: \.notice),
        DownloadField("diskShortfall", optional: \.diskShortfall),
        DownloadField("connections", optional: \.connections),
        DownloadField("speedLimit", optional: \.speedLimit),
        DownloadField("activeConnections", optional: \.activeConnections),
        DownloadField("segments", optional: \.segments),
        DownloadField("queueOrder", \.queueOrder),
        DownloadField("addedAt", \.addedAt),
        DownloadField("finishedAt", optional: \.finishedAt),
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
        set: @escaping @Sendable (inout DownloadState.Parts, Value) -> Void
    ) {
        self.key = key
        isRequired = false
        self.get = get
        self.set = { set(&$0.state, $1) }
    }

    /// A field always stored, or left out when `omittedWhen` says its value is the default.
    public init(
        _ key: String, _ path: WritableKeyPath<Download, Value> & Sendable, required: Bool = false,
        omittedWhen omitted: (@Sendable (Value) -> Bool)? = nil
    ) {
        self.key = key
        isRequired = required
        if let omitted {
            get = { d in
                let value = d[keyPath: path]
                return omitted(value) ? nil : value
            }
        } else {
            get = { $0[keyPath: path] }
        }
        set = { $0.download[keyPath: path] = $1 }
    }

    /// A field left out while nil.
    public init(_ key: String, optional path: WritableKeyPath<Download, Value?> & Sendable) {
        self.key = key
        isRequired = false
        get = { $0[keyPath: path] }
        set = { $0.download[keyPath: path] = $1 }
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
