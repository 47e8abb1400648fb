import HaulCore

/// Reads only the version and the field names of a state file, to find fields this build
/// does not know (and would drop on the next save) without building any values.
struct KeySurvey: Decodable {
    let version: Int
    private(set) var unknownFields: [String] = []

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Stored property names, which are the synthesized coding keys.
    private static func knownKeys(of value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }

    private static let settingsKeys = knownKeys(of: StateDocument.Settings())
    private static let downloadKeys = Set(Download.schema.map(\.key))

    init(from decoder: Decoder) throws {
        let root = try decoder.container(keyedBy: AnyKey.self)
        version = try root.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "version")) ?? 1
        var unknown = Set(root.allKeys.map(\.stringValue)).subtracting([
            "version", "settings", "downloads", "away", "journalMark",
        ])
        if let settings = try? root.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: "settings")) {
            unknown.formUnion(
                Set(settings.allKeys.map(\.stringValue)).subtracting(Self.settingsKeys).map { "settings.\($0)" })
        }
        if var list = try? root.nestedUnkeyedContainer(forKey: AnyKey(stringValue: "downloads")) {
            var seen = Set<String>()
            while !list.isAtEnd {
                guard let entry = try? list.nestedContainer(keyedBy: AnyKey.self) else { break }
                for key in entry.allKeys where !Self.downloadKeys.contains(key.stringValue) {
                    seen.insert(key.stringValue)
                }
            }
            unknown.formUnion(seen.map { "downloads[].\($0)" })
        }
        unknownFields = unknown.sorted()
    }
}
