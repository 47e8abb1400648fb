import FoundationEssentials
import Glibc
import HaulCore

/// A download as the state file stores it: one object, the schema's fields in its order, written
/// and read in one pass without Foundation (``StateFieldValue`` says how for each value's type).
/// Anything the one-pass reader does not read is left to `Codable`, which gives the same JSON.
enum DownloadRecord {
    /// Writes `d` as the state file stores it, into memory reserved for its longest form.
    static func write(_ d: Download, into out: inout [UInt8]) {
        // Through the buffer: iterating the array retained and released each field twice a download.
        fields.withUnsafeBufferPointer { fields in
            var bound = 2
            for i in fields.indices { bound += fields[i].bound(d) }
            JSONBytes.write(to: &out, atMost: bound) { out in
                var first = true
                for i in fields.indices where fields[i].write(d, to: &out, first: first) { first = false }
                out.append(first ? "{}" : "}")
            }
        }
    }

    /// Reads a download object of the state file; `unknownKey` hears of each key the schema does
    /// not have (its value is skipped). Throws for anything Foundation must read instead.
    static func read(
        from s: inout JSONScanner, context: inout DownloadReadContext, unknownKey: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(JSONScanner.Unsupported) -> Download {
        var d = DownloadDraft()
        var required = 0
        try s.objectKeys { s, key throws(JSONScanner.Unsupported) in
            guard let field = FieldTable.find(key) else {
                if key.elementsEqual(Download.legacySHA256Key.utf8) {
                    d.download.checksum = try? Checksum(.sha256, hex: try s.string())
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
        guard required == FieldTable.requiredCount else { throw JSONScanner.Unsupported() }
        return d.finished
    }

    /// The schema's fields with their state-file code, in the schema's order.
    static let fields: [StoredField] = {
        var builder = Builder()
        for field in Download.schema { field.accept(&builder) }
        return builder.fields
    }()

    /// Reads that share strings between downloads: most downloads of a list share a few
    /// directories, and a final URL is usually the URL itself.
    private static let sharedStringReads: [String: StoredField.Read] = [
        "directory": { s, d, context in
            d.download.directory = try s.string(sameAs: context.lastDirectory)
            context.lastDirectory = d.download.directory
        },
        "finalURL": { s, d, _ in d.download.finalURL = try s.string(sameAs: d.download.url) },
    ]

    private struct Builder: DownloadFieldVisitor {
        var fields: [StoredField] = []

        mutating func visit<Value>(_ field: DownloadField<Value>) {
            guard let stored = Self.stored(field, read: DownloadRecord.sharedStringReads[field.key]) else {
                preconditionFailure("the state file has no code for \(Value.self), the value of '\(field.key)'")
            }
            fields.append(stored)
        }

        /// The field's code, compiled for its value's type: every type a field holds is named here
        /// because code generic over a type known only at run time looks up that type's metadata
        /// at each call, three million times for a state file of 100,000 downloads.
        private static func stored(_ field: some DownloadFieldProtocol, read: StoredField.Read?) -> StoredField? {
            switch field {
            case let field as DownloadField<String>: StoredField(field, read: read)
            case let field as DownloadField<[String]>: StoredField(field, read: read)
            case let field as DownloadField<Bool>: StoredField(field, read: read)
            case let field as DownloadField<Int>: StoredField(field, read: read)
            case let field as DownloadField<Int64>: StoredField(field, read: read)
            case let field as DownloadField<UInt64>: StoredField(field, read: read)
            case let field as DownloadField<Date>: StoredField(field, read: read)
            case let field as DownloadField<DownloadID>: StoredField(field, read: read)
            case let field as DownloadField<DownloadState.Kind>: StoredField(field, read: read)
            case let field as DownloadField<PauseCause.Kind>: StoredField(field, read: read)
            case let field as DownloadField<BudgetUse>: StoredField(field, read: read)
            case let field as DownloadField<FailureReason>: StoredField(field, read: read)
            case let field as DownloadField<Notice>: StoredField(field, read: read)
            case let field as DownloadField<Checksum>: StoredField(field, read: read)
            case let field as DownloadField<[RequestHeader]>: StoredField(field, read: read)
            case let field as DownloadField<[Segment]>: StoredField(field, read: read)
            case let field as DownloadField<[DownloadSource]>: StoredField(field, read: read)
            case let field as DownloadField<PieceHashes>: StoredField(field, read: read)
            case let field as DownloadField<ProxyChoice>: StoredField(field, read: read)
            case let field as DownloadField<FileSelection>: StoredField(field, read: read)
            case let field as DownloadField<TorrentFacts>: StoredField(field, read: read)
            case let field as DownloadField<SeedGoal>: StoredField(field, read: read)
            default: nil
            }
        }
    }
}

/// What the one-pass reader carries from one download to the next.
struct DownloadReadContext {
    /// The directory of the download read last, whose string the next one shares when it can.
    var lastDirectory: String?
}

/// One field of the schema as the state file writes and reads it.
final class StoredField: Sendable {
    /// Reads the field's value into the download; throws ``JSONScanner/Unsupported`` for anything
    /// the one-pass reader does not read (Foundation reads the file then).
    typealias Read = @Sendable (inout JSONScanner, inout DownloadDraft, inout DownloadReadContext) throws -> Void

    let key: String
    let isRequired: Bool
    /// `"key":`, as the writer puts it before the value.
    let quotedKey: [UInt8]
    /// The most bytes the value takes, nil when the field is absent (nothing is written then).
    private let valueBound: @Sendable (Download) -> Int?
    /// Writes the value, when the field is present; returns whether it did.
    private let writeValue: @Sendable (Download, inout JSONBytes.Cursor, _ first: Bool, _ key: [UInt8]) -> Bool
    /// Reads a value that is not `null` into the download.
    let read: Read

    init<Value: StateFieldValue>(_ field: DownloadField<Value>, read: Read?) {
        key = field.key
        isRequired = field.isRequired
        quotedKey = Array("\"\(field.key)\":".utf8)
        let get = field.get
        valueBound = { d in get(d).map(Value.stateBound) }
        writeValue = { d, out, first, key in
            guard let value = get(d) else { return false }
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            key.withUnsafeBufferPointer { out.append($0) }
            Value.writeState(value, to: &out)
            return true
        }
        let set = field.set
        self.read = read ?? { s, d, _ in set(&d, try Value.readState(from: &s)) }
    }

    /// The most bytes ``write(_:to:first:)`` writes for `d`, key and separator included.
    func bound(_ d: Download) -> Int {
        guard let value = valueBound(d) else { return 0 }
        return quotedKey.count + 1 + value
    }

    /// Writes `,"key":value` (without the comma for the first field written) when `d` has the
    /// field; returns whether it wrote anything.
    func write(_ d: Download, to out: inout JSONBytes.Cursor, first: Bool) -> Bool {
        writeValue(d, &out, first, quotedKey)
    }
}

/// The schema's fields, found by their key's bytes without making a `String` per key.
private enum FieldTable {
    /// Each field's slot in `slots`, from its key's length, first and last byte; no two fields
    /// share one (checked when the table is made, and so by every decoding test).
    private static func slot(_ count: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (count &* 6 &+ Int(first) &* 23 &+ Int(last)) & 255
    }

    private static let fields = DownloadRecord.fields
    private static let names: [[UInt8]] = fields.map { Array($0.key.utf8) }
    private static let slots: [Int16] = {
        var table = [Int16](repeating: -1, count: 256)
        for (i, name) in names.enumerated() {
            let slot = slot(name.count, name[0], name[name.count - 1])
            precondition(table[slot] == -1, "two state file fields share a slot: change FieldTable.slot")
            table[slot] = Int16(i)
        }
        return table
    }()

    static func find(_ key: UnsafeBufferPointer<UInt8>) -> StoredField? {
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
