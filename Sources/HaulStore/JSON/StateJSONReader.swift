import FoundationEssentials
import HaulCore

/// Reads a sound state file in one pass over its bytes, several times faster than
/// `JSONDecoder` and without its intermediate objects, noting field names this build does not
/// know on the way. Anything unusual (ISO 8601 dates from older files, a wrong type, damage)
/// throws, and ``StateFile`` takes the Foundation path, which also repairs.
enum StateJSONReader {
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

    private static let settingsKeys: Set<String> = [
        "concurrency", "connections", "cookieFile", "meteredMode", "meteredLimit", "meteredBudget", "meteredUsage",
        "speedLimit",
    ]

    private static func document(_ s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Result {
        var document = StateDocument()
        var unknown = Set<String>()
        var context = DownloadReadContext()
        var version = 1
        try s.object { s, key throws(JSONScanner.Unsupported) in
            switch key {
            case "version": version = Int(try s.int64())
            case "settings": document.settings = try settings(s.rawValue(), unknown: &unknown)
            case "journalMark": document.journalMark = Int(try s.int64())
            case "away": document.away = try s.null() ? nil : try foundation(AwayReport.self, s.rawValue())
            case "downloads":
                try s.array { s throws(JSONScanner.Unsupported) in
                    document.downloads.append(try download(&s, unknown: &unknown, context: &context))
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

    /// A command's record from the journal (see ``StateJournal/Record``), read as the state
    /// file is: a batch of 10,000 new downloads is one line.
    static func record(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONScanner.Unsupported) -> StateJournal.Record {
        var s = JSONScanner(bytes)
        var record = StateJournal.Record(sequence: 0)
        var unknown = Set<String>()
        var context = DownloadReadContext()
        try s.object { s, key throws(JSONScanner.Unsupported) in
            switch key {
            case "sequence": record.sequence = Int(try s.int64())
            case "downloads":
                var downloads: [Download] = []
                try s.array { s throws(JSONScanner.Unsupported) in
                    downloads.append(try download(&s, unknown: &unknown, context: &context))
                }
                record.downloads = downloads
            case "removed":
                var removed: [DownloadID] = []
                try s.array { s throws(JSONScanner.Unsupported) in removed.append(DownloadID(rawValue: try s.string()))
                }
                record.removed = removed
            case "settings": record.settings = try settings(s.rawValue(), unknown: &unknown)
            default: _ = try s.rawValue()
            }
        }
        guard s.isAtEnd else { throw JSONScanner.Unsupported() }
        return record
    }

    /// The settings in `raw`: in one pass, else through Foundation, noting keys this build does
    /// not know (only Foundation's path can meet them).
    private static func settings(_ raw: UnsafeBufferPointer<UInt8>, unknown: inout Set<String>)
        throws(JSONScanner.Unsupported) -> StateDocument.Settings
    {
        do throws(JSONScanner.Unsupported) {
            return try SettingsJSON.read(raw)
        } catch {
            var inner = JSONScanner(raw)
            try inner.object { s, key throws(JSONScanner.Unsupported) in
                if !settingsKeys.contains(key) { unknown.insert("settings.\(key)") }
                _ = try s.rawValue()
            }
            return try foundation(StateDocument.Settings.self, raw)
        }
    }

    static func download(_ s: inout JSONScanner, unknown: inout Set<String>, context: inout DownloadReadContext)
        throws(JSONScanner.Unsupported) -> Download
    {
        try DownloadRecord.read(from: &s, context: &context) { key in
            unknown.insert("downloads[].\(String(decoding: key, as: UTF8.self))")
        }
    }

    /// Rare or small values go through Foundation, with the state file's date rules.
    private static func foundation<T: Decodable>(_ type: T.Type, _ raw: UnsafeBufferPointer<UInt8>)
        throws(JSONScanner.Unsupported) -> T
    {
        try StateCoding.decode(type, raw)
    }
}
