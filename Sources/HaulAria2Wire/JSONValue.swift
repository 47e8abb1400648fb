import FoundationEssentials
import HaulStore

/// A JSON value as a call brings it and a reply carries it. An object keeps its members in the
/// order they were made, so a reply reads in the order aria2 writes its keys.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])
    /// A value already written as JSON (by ``JSONObjectWriter``), copied into a reply as it is.
    case encoded([UInt8])

    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object of `members`, in their order.
    public static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { Member($0.key, $0.value) })
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var int: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var members: [Member]? {
        if case .object(let m) = self { return m }
        return nil
    }

    /// The member `key` of an object (the last, should it come twice).
    public subscript(key: String) -> JSONValue? {
        members?.last { $0.key == key }?.value
    }
}

extension JSONValue: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            let o = try c.decode([String: JSONValue].self)
            self = .object(o.sorted { $0.key < $1.key }.map { Member($0.key, $0.value) })
        }
    }

    /// The value `bytes` hold; nil when they are not JSON. Read in one pass with the state file's
    /// scanner; what it does not take (or nests deeper than ``mostDepth``) goes to Foundation.
    public static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        let array = Array(bytes)
        let scanned: JSONValue? = array.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            guard let value = try? scan(&scanner, depth: 0) else { return nil }
            scanner.skipWhitespace()
            return scanner.isAtEnd ? value : nil
        }
        return scanned ?? (try? JSONDecoder().decode(JSONValue.self, from: Data(array)))
    }

    /// How deeply arrays and objects may nest in a request read in one pass (aria2's calls nest three).
    public static let mostDepth = 64

    private static func scan(_ s: inout JSONScanner, depth: Int) throws(JSONScanner.Unsupported) -> JSONValue {
        guard depth < mostDepth else { throw JSONScanner.Unsupported() }
        switch try s.peek() {
        case UInt8(ascii: "{"):
            var members: [Member] = []
            try s.object { s, key throws(JSONScanner.Unsupported) in
                members.append(Member(key, try scan(&s, depth: depth + 1)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try s.array { s throws(JSONScanner.Unsupported) in elements.append(try scan(&s, depth: depth + 1)) }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try s.string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try s.bool())
        case UInt8(ascii: "n"):
            _ = try s.null()
            return .null
        default:
            // As Foundation reads a number: a whole one that fits is an integer, whatever its form.
            let text = String(decoding: try s.rawValue(), as: UTF8.self)
            if let int = Int64(text) { return .int(int) }
            guard let double = Double(text) else { throw JSONScanner.Unsupported() }
            if double == double.rounded(), let int = Int64(exactly: double) { return .int(int) }
            return .double(double)
        }
    }
}

extension JSONValue {
    /// Appends the value as compact JSON.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONBytes.appendDecimal(i, to: &out)
        case .double(let d): out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
        case .string(let s): JSONBytes.quoted(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONBytes.quoted(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .encoded(let bytes): out.append(contentsOf: bytes)
        }
    }

    /// The value as compact JSON bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out)
        return out
    }
}
