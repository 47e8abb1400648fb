import Foundation

/// Every stored field of a ``Download``: the one list that `Codable`, the state file's one-pass
/// reader and writer, and the socket (which carries downloads in the state file's form) go by.
///
/// Adding a field to a download is a property on `Download` and one line here; the schema tests
/// fail when a stored property has no line. Only the identity is required: fields added later
/// must read from older files, so a missing one keeps the value a new download starts with.
extension Download {
    public static let schema: [DownloadField] = [
        .init("id", required: true, get: { $0.id }, set: { $0.id = $1 }),
        .init("url", required: true, get: { $0.url }, set: { $0.url = $1 }),
        .init("previousURLs", get: { $0.previousURLs.isEmpty ? nil : $0.previousURLs }, set: { $0.previousURLs = $1 }),
        .init("linkUnchecked", get: { $0.linkUnchecked ? true : nil }, set: { $0.linkUnchecked = $1 }),
        .init(
            "directory", required: true, get: { $0.directory }, set: { $0.directory = $1 },
            read: { s, d, context in
                // Downloads share a few directories: one string for all of them.
                d.directory = try s.string(sameAs: context.lastDirectory)
                context.lastDirectory = d.directory
            }),
        .init("requestedName", get: { $0.requestedName }, set: { $0.requestedName = $1 }),
        .init("fileName", get: { $0.fileName }, set: { $0.fileName = $1 }),
        .init("state", get: { $0.state }, set: { $0.state = $1 }),
        .init("pauseCause", get: { $0.pauseCause }, set: { $0.pauseCause = $1 }),
        .init("failureReason", get: { $0.failureReason }, set: { $0.failureReason = $1 }),
        .init("receivedBytes", get: { $0.receivedBytes }, set: { $0.receivedBytes = $1 }),
        .init("totalBytes", get: { $0.totalBytes }, set: { $0.totalBytes = $1 }),
        .init("headers", get: { $0.headers.isEmpty ? nil : $0.headers }, set: { $0.headers = $1 }),
        .init("cookieFile", get: { $0.cookieFile }, set: { $0.cookieFile = $1 }),
        .init("checksum", get: { $0.checksum }, set: { $0.checksum = $1 }),
        .init("allowMetered", get: { $0.allowMetered }, set: { $0.allowMetered = $1 }),
        .init("etag", get: { $0.etag }, set: { $0.etag = $1 }),
        .init("lastModified", get: { $0.lastModified }, set: { $0.lastModified = $1 }),
        .init("resumable", get: { $0.resumable }, set: { $0.resumable = $1 }),
        .init(
            "finalURL", get: { $0.finalURL }, set: { $0.finalURL = $1 },
            read: { s, d, _ in
                // Usually the URL itself: then one string for both.
                d.finalURL = try s.string(sameAs: d.url)
            }),
        .init("retries", get: { $0.retries }, set: { $0.retries = $1 }),
        .init("lastError", get: { $0.lastError }, set: { $0.lastError = $1 }),
        .init("notice", get: { $0.notice }, set: { $0.notice = $1 }),
        .init("diskShortfall", get: { $0.diskShortfall }, set: { $0.diskShortfall = $1 }),
        .init("connections", get: { $0.connections }, set: { $0.connections = $1 }),
        .init("speedLimit", get: { $0.speedLimit }, set: { $0.speedLimit = $1 }),
        .init("activeConnections", get: { $0.activeConnections }, set: { $0.activeConnections = $1 }),
        .init("segments", get: { $0.segments }, set: { $0.segments = $1 }),
        .init("queueOrder", get: { $0.queueOrder }, set: { $0.queueOrder = $1 }),
        .init("addedAt", get: { $0.addedAt }, set: { $0.addedAt = $1 }),
        .init("finishedAt", get: { $0.finishedAt }, set: { $0.finishedAt = $1 }),
    ]

    /// What a download read from a file starts as, before its fields are read: what a missing
    /// field means.
    public static var unread: Download {
        Download(
            id: DownloadID(rawValue: ""), url: "", directory: "", queueOrder: 0, addedAt: Date(timeIntervalSince1970: 0)
        )
    }

    /// Writes `self` as the state file stores it, the fields in the schema's order, into memory
    /// reserved for its longest form.
    public static func writeState(_ d: Download, into out: inout [UInt8]) {
        var bound = 2
        for field in schema { bound += field.bound(d) }
        JSONBytes.write(to: &out, atMost: bound) { out in
            var first = true
            for field in schema where field.write(d, to: &out, first: first) { first = false }
            out.append(first ? "{}" : "}")
        }
    }

    /// Reads a download object of the state file; `unknownKey` hears of each key the schema does
    /// not have (its value is skipped). Throws for anything Foundation must read instead.
    public static func readState(
        from s: inout JSONScanner, context: inout DownloadReadContext, unknownKey: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(JSONScanner.Unsupported) -> Download {
        var d = Download.unread
        var required = 0
        try s.objectKeys { s, key throws(JSONScanner.Unsupported) in
            guard let field = SchemaTable.find(key) else {
                if key.elementsEqual(Self.legacySHA256Key.utf8) {
                    d.checksum = try? Checksum(.sha256, hex: try s.string())
                    return
                }
                unknownKey(key)
                _ = try s.rawValue()
                return
            }
            // `null` is what an absent optional decodes as, for every field.
            if try s.null() {
                guard !field.isRequired else { throw JSONScanner.Unsupported() }
                return
            }
            if field.isRequired { required += 1 }
            do {
                try field.read(&s, &d, &context)
            } catch {
                throw JSONScanner.Unsupported()
            }
        }
        guard required == SchemaTable.requiredCount else { throw JSONScanner.Unsupported() }
        return d
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: SchemaKey.self)
        self = .unread
        for field in Self.schema { try field.decode(container, &self) }
        if checksum == nil,
            let hex = try container.decodeIfPresent(String.self, forKey: .init(stringValue: Self.legacySHA256Key))
        {
            checksum = try? Checksum(.sha256, hex: hex)
        }
    }

    /// Where files of an older haul, which knew only SHA-256, keep the expected digest.
    static let legacySHA256Key = "sha256"

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SchemaKey.self)
        for field in Self.schema { try field.encode(self, &container) }
    }
}

/// The schema's fields, found by their key's bytes without making a `String` per key.
private enum SchemaTable {
    /// Each field's slot in `slots`, from its key's length, first and last byte; no two fields
    /// share one (checked when the table is made, and so by every decoding test).
    private static func slot(_ count: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (count &+ Int(first) &* 13 &+ Int(last)) & 255
    }

    private static let fields = Download.schema
    private static let names: [[UInt8]] = fields.map { Array($0.key.utf8) }
    private static let slots: [Int16] = {
        var table = [Int16](repeating: -1, count: 256)
        for (i, name) in names.enumerated() {
            let slot = slot(name.count, name[0], name[name.count - 1])
            precondition(table[slot] == -1, "two state file fields share a slot: change SchemaTable.slot")
            table[slot] = Int16(i)
        }
        return table
    }()

    static func find(_ key: UnsafeBufferPointer<UInt8>) -> DownloadField? {
        guard let first = key.first, let last = key.last else { return nil }
        let i = Int(slots[slot(key.count, first, last)])
        guard i >= 0 else { return nil }
        let matches = names[i].withUnsafeBufferPointer { name in
            name.count == key.count && memcmp(name.baseAddress!, key.baseAddress!, key.count) == 0
        }
        return matches ? fields[i] : nil
    }

    static let requiredCount = fields.count { $0.isRequired }
}

/// A state-file key, for `Codable` by the schema.
public struct SchemaKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// What the one-pass reader carries from one download to the next.
public struct DownloadReadContext {
    /// The directory of the download read last, whose string the next one shares when it can.
    public var lastDirectory: String?

    public init() {}
}

/// One stored field of a download: its key, and how each coder reads and writes its value.
public final class DownloadField: Sendable {
    /// Reads the field's value into the download; throws ``JSONScanner/Unsupported`` for anything
    /// the one-pass reader does not read (Foundation reads the file then).
    public typealias Read = @Sendable (inout JSONScanner, inout Download, inout DownloadReadContext) throws -> Void

    public let key: String
    /// Whether a download without it cannot be read (only the identity is).
    public let isRequired: Bool
    /// `"key":`, as the one-pass writer puts it before the value.
    public let quotedKey: [UInt8]
    /// The most bytes the value takes, nil when the field is absent (nothing is written then).
    let valueBound: @Sendable (Download) -> Int?
    /// Writes the value, when the field is present; returns whether it did.
    let writeValue: @Sendable (Download, inout JSONBytes.Cursor, _ first: Bool, _ key: [UInt8]) -> Bool
    /// Reads a value that is not `null` into the download.
    public let read: Read
    let decode: @Sendable (KeyedDecodingContainer<SchemaKey>, inout Download) throws -> Void
    let encode: @Sendable (Download, inout KeyedEncodingContainer<SchemaKey>) throws -> Void

    /// A field whose value is `get`'s (nil: absent, neither written nor encoded).
    init<Value: StateFieldValue>(
        _ key: String, required: Bool = false, get: @escaping @Sendable (Download) -> Value?,
        set: @escaping @Sendable (inout Download, Value) -> Void, read: Read? = nil
    ) {
        self.key = key
        isRequired = required
        quotedKey = Array("\"\(key)\":".utf8)
        valueBound = { d in get(d).map(Value.stateBound) }
        writeValue = { d, out, first, key in
            guard let value = get(d) else { return false }
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            key.withUnsafeBufferPointer { out.append($0) }
            Value.writeState(value, to: &out)
            return true
        }
        if let read {
            self.read = read
        } else {
            self.read = { s, d, _ in set(&d, try Value.readState(from: &s)) }
        }
        let codingKey = SchemaKey(stringValue: key)
        decode = { container, d in
            if required {
                set(&d, try container.decode(Value.self, forKey: codingKey))
            } else if let value = try container.decodeIfPresent(Value.self, forKey: codingKey) {
                set(&d, value)
            }
        }
        encode = { d, container in
            if let value = get(d) { try container.encode(value, forKey: codingKey) }
        }
    }

    /// The most bytes ``write(_:to:)`` writes for `d`, key and separator included.
    public func bound(_ d: Download) -> Int {
        guard let value = valueBound(d) else { return 0 }
        return quotedKey.count + 1 + value
    }

    /// Writes `,"key":value` (without the comma for the first field written) when `d` has the
    /// field; returns whether it wrote anything.
    public func write(_ d: Download, to out: inout JSONBytes.Cursor, first: Bool) -> Bool {
        writeValue(d, &out, first, quotedKey)
    }
}
