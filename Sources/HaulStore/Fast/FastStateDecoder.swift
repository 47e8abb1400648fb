import Foundation
import HaulCore

/// Reads a sound state file in one pass over its bytes, several times faster than
/// `JSONDecoder` and without its intermediate objects, noting field names this build does not
/// know on the way. Anything unusual (ISO 8601 dates from older files, a wrong type, damage)
/// throws, and ``StateFile`` takes the Foundation path, which also repairs.
enum FastStateDecoder {
    struct Result {
        var document: StateDocument
        var unknownFields: [String]
    }

    static func decode(_ data: Data) throws(JSONScanner.Unsupported) -> Result {
        let outcome: Swift.Result<Result, JSONScanner.Unsupported> = data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            do throws(JSONScanner.Unsupported) {
                return .success(try document(&scanner))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private static let settingsKeys: Set<String> = ["concurrency", "meteredMode", "meteredLimit"]

    private static func document(_ s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Result {
        var document = StateDocument()
        var unknown = Set<String>()
        var lastDirectory: String?
        var version = 1
        try s.object { s, key throws(JSONScanner.Unsupported) in
            switch key {
            case "version": version = Int(try s.int64())
            case "settings":
                let raw = try s.rawValue()
                do throws(JSONScanner.Unsupported) {
                    document.settings = try FastSettings.read(raw)
                } catch {
                    document.settings = try foundation(StateDocument.Settings.self, raw)
                    var inner = JSONScanner(raw)
                    try inner.object { s, key throws(JSONScanner.Unsupported) in
                        if !settingsKeys.contains(key) { unknown.insert("settings.\(key)") }
                        _ = try s.rawValue()
                    }
                }
            case "away": document.away = try s.null() ? nil : try foundation(AwayReport.self, s.rawValue())
            case "downloads":
                try s.array { s throws(JSONScanner.Unsupported) in
                    document.downloads.append(try download(&s, unknown: &unknown, lastDirectory: &lastDirectory))
                }
            default:
                unknown.insert(key)
                _ = try s.rawValue()
            }
        }
        guard s.isAtEnd else { throw JSONScanner.Unsupported() }
        document.version = version
        return Result(document: document, unknownFields: unknown.sorted())
    }

    /// The fields of a download, found by their key's bytes without making a `String` per key.
    private enum Field: String, CaseIterable {
        case id, url, directory, requestedName, fileName, state, pauseCause, failureReason, receivedBytes, totalBytes
        case headers, sha256, allowMetered, etag, lastModified, resumable, finalURL, retries, lastError, notice
        case diskShortfall, queueOrder, addedAt, finishedAt

        /// Each field's slot in `slots`, from its key's length, first and last byte; no two
        /// fields share one (checked when the table is made, and so by every decoding test).
        /// Faster than grouping keys by length (~210 → ~60 instructions a key).
        private static func slot(_ count: Int, _ first: UInt8, _ last: UInt8) -> Int {
            (count &* 37 &+ Int(first) &* 11 &+ Int(last)) & 255
        }

        private static let ordered = allCases
        private static let names: [[UInt8]] = allCases.map { Array($0.rawValue.utf8) }
        private static let slots: [Int8] = {
            var table = [Int8](repeating: -1, count: 256)
            for (i, name) in names.enumerated() {
                let slot = slot(name.count, name[0], name[name.count - 1])
                precondition(table[slot] == -1, "two state file fields share a slot: change Field.slot")
                table[slot] = Int8(i)
            }
            return table
        }()

        static func find(_ key: UnsafeBufferPointer<UInt8>) -> Field? {
            guard let first = key.first, let last = key.last else { return nil }
            let i = Int(slots[slot(key.count, first, last)])
            guard i >= 0 else { return nil }
            let matches = names[i].withUnsafeBufferPointer { name in
                name.count == key.count && memcmp(name.baseAddress!, key.baseAddress!, key.count) == 0
            }
            return matches ? ordered[i] : nil
        }
    }

    static func download(_ s: inout JSONScanner, unknown: inout Set<String>, lastDirectory: inout String?)
        throws(JSONScanner.Unsupported) -> Download
    {
        var id: String?
        var url: String?
        var directory: String?
        var d = Download(
            id: DownloadID(rawValue: ""), url: "", directory: "", queueOrder: 0, addedAt: Date(timeIntervalSince1970: 0)
        )
        try s.objectKeys { s, key throws(JSONScanner.Unsupported) in
            guard let field = Field.find(key) else {
                unknown.insert("downloads[].\(String(decoding: key, as: UTF8.self))")
                _ = try s.rawValue()
                return
            }
            // `null` is what an absent optional decodes as, for every field.
            if try s.null() {
                guard field != .id, field != .url, field != .directory else { throw JSONScanner.Unsupported() }
                return
            }
            switch field {
            case .id: id = try s.string()
            case .url: url = try s.string()
            case .directory:
                directory = try s.string(sameAs: lastDirectory)
                lastDirectory = directory
            case .requestedName: d.requestedName = try s.string()
            case .fileName: d.fileName = try s.string()
            case .state:
                guard let state = DownloadState(rawValue: try s.string()) else { throw JSONScanner.Unsupported() }
                d.state = state
            case .pauseCause:
                guard let cause = PauseCause(rawValue: try s.string()) else { throw JSONScanner.Unsupported() }
                d.pauseCause = cause
            case .failureReason: d.failureReason = try reason(FailureReason.self, &s)
            case .receivedBytes: d.receivedBytes = try s.int64()
            case .totalBytes: d.totalBytes = try s.int64()
            case .headers:
                if try s.peek() == UInt8(ascii: "["), case let raw = try s.rawValue(), raw.count > 2 {
                    d.headers = try foundation([RequestHeader].self, raw)
                }
            case .sha256: d.sha256 = try s.string()
            case .allowMetered: d.allowMetered = try s.bool()
            case .etag: d.etag = try s.string()
            case .lastModified: d.lastModified = try s.string()
            case .resumable: d.resumable = try s.bool()
            case .finalURL: d.finalURL = try s.string(sameAs: url)
            case .retries: d.retries = Int(try s.int64())
            case .lastError: d.lastError = try reason(FailureReason.self, &s)
            case .notice: d.notice = try reason(Notice.self, &s)
            case .diskShortfall: d.diskShortfall = try s.int64()
            case .queueOrder:
                let order = try s.int64()
                guard order >= 0 else { throw JSONScanner.Unsupported() }
                d.queueOrder = UInt64(order)
            case .addedAt: d.addedAt = Date(timeIntervalSince1970: try s.double())
            case .finishedAt: d.finishedAt = Date(timeIntervalSince1970: try s.double())
            }
        }
        guard let id, let url, let directory else { throw JSONScanner.Unsupported() }
        d.id = DownloadID(rawValue: id)
        d.url = url
        d.directory = directory
        return d
    }

    /// A reason: an object, or the plain text an older haul stored; few downloads have one, so
    /// Foundation reads it.
    private static func reason<T: Decodable>(_ type: T.Type, _ s: inout JSONScanner) throws(JSONScanner.Unsupported)
        -> T
    {
        try foundation(type, s.rawValue())
    }

    /// Rare or small values go through Foundation, with the state file's date rules.
    private static func foundation<T: Decodable>(_ type: T.Type, _ raw: UnsafeBufferPointer<UInt8>) throws(JSONScanner
        .Unsupported) -> T
    {
        do {
            return try StateFile.decoder().decode(type, from: Data(buffer: raw))
        } catch {
            throw JSONScanner.Unsupported()
        }
    }
}
