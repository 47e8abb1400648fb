import HaulAria2Wire
import HaulStore

/// Writes one JSON object member by member straight into bytes: for the structs a list answers
/// a thousand of at a time, where a tree of ``JSONValue``s would cost an allocation per member.
struct JSONObjectWriter {
    private var out: [UInt8] = []
    private var empty = true
    /// The keys to write; nil for all.
    private let keys: Set<String>?

    init(keys: Set<String>? = nil, capacity: Int = 512) {
        self.keys = keys
        out.reserveCapacity(capacity)
        out.append(UInt8(ascii: "{"))
    }

    /// Whether `key` is wanted; the value of one that is not is never made.
    func wants(_ key: String) -> Bool { keys?.contains(key) ?? true }

    private mutating func begin(_ key: String) {
        if !empty { out.append(UInt8(ascii: ",")) }
        empty = false
        JSONBytes.quoted(key, into: &out)
        out.append(UInt8(ascii: ":"))
    }

    mutating func string(_ key: String, _ value: @autoclosure () -> String) {
        guard wants(key) else { return }
        begin(key)
        JSONBytes.quoted(value(), into: &out)
    }

    /// A number as aria2 writes every number: a string of its decimal digits.
    mutating func number(_ key: String, _ value: @autoclosure () -> Int64) {
        guard wants(key) else { return }
        begin(key)
        out.append(UInt8(ascii: "\""))
        JSONBytes.appendDecimal(value(), to: &out)
        out.append(UInt8(ascii: "\""))
    }

    mutating func value(_ key: String, _ value: @autoclosure () -> JSONValue) {
        guard wants(key) else { return }
        begin(key)
        value().write(to: &out)
    }

    consuming func finish() -> JSONValue {
        out.append(UInt8(ascii: "}"))
        return .encoded(out)
    }
}
