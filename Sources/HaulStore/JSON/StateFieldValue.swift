import FoundationEssentials
import HaulCore

/// A value a download's field can hold, as the state file's one-pass reader and writer read and
/// write it. `Codable` is the other way in and out; both give the same JSON.
public protocol StateFieldValue: Codable, Sendable {
    /// The most bytes ``writeState(_:to:)`` writes for `value`.
    static func stateBound(_ value: Self) -> Int
    static func writeState(_ value: Self, to out: inout JSONBytes.Cursor)
    static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Self
}

/// How the state file writes JSON with Foundation: dates as seconds since 1970 (reading ISO 8601
/// strings cost more than all the rest of a 100,000-entry file), keys sorted; and reads dates as
/// numbers or as the ISO 8601 strings the first files had.
public enum StateCoding {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
            let text = try container.decode(String.self)
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a date: \(text)")
            }
            return date
        }
        return decoder
    }

    /// A value read by Foundation from the bytes the one-pass reader skipped over.
    public static func decode<T: Decodable>(_ type: T.Type, _ raw: UnsafeBufferPointer<UInt8>) throws(JSONScanner
        .Unsupported)
        -> T
    {
        do {
            return try sharedDecoder.decode(type, from: Data(buffer: raw))
        } catch {
            throw JSONScanner.Unsupported()
        }
    }

    /// One decoder and one encoder for all such values: making one costs more than coding a small
    /// value.
    private static let sharedDecoder = decoder()
    static let sharedEncoder = encoder()
}

extension String: StateFieldValue {
    public static func stateBound(_ value: String) -> Int { JSONBytes.quotedBound(value) }
    public static func writeState(_ value: String, to out: inout JSONBytes.Cursor) { out.appendQuoted(value) }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> String {
        try s.string()
    }
}

extension Int64: StateFieldValue {
    public static func stateBound(_ value: Int64) -> Int { 20 }
    public static func writeState(_ value: Int64, to out: inout JSONBytes.Cursor) { out.appendDecimal(value) }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Int64 {
        try s.int64()
    }
}

extension UInt64: StateFieldValue {
    public static func stateBound(_ value: UInt64) -> Int { 20 }
    public static func writeState(_ value: UInt64, to out: inout JSONBytes.Cursor) { out.appendDecimal(value) }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> UInt64 {
        let value = try s.int64()
        guard value >= 0 else { throw JSONScanner.Unsupported() }
        return UInt64(value)
    }
}

extension Int: StateFieldValue {
    public static func stateBound(_ value: Int) -> Int { 20 }
    public static func writeState(_ value: Int, to out: inout JSONBytes.Cursor) { out.appendDecimal(value) }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Int {
        Int(try s.int64())
    }
}

extension Bool: StateFieldValue {
    public static func stateBound(_ value: Bool) -> Int { 5 }
    public static func writeState(_ value: Bool, to out: inout JSONBytes.Cursor) {
        out.append(value ? "true" : "false")
    }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Bool { try s.bool() }
}

extension Date: StateFieldValue {
    /// A `Double`'s description is at most 24 bytes.
    public static func stateBound(_ value: Date) -> Int { 32 }

    /// Seconds since 1970: whole seconds as an integer, else the shortest digits that read back
    /// exactly.
    public static func writeState(_ value: Date, to out: inout JSONBytes.Cursor) {
        let seconds = value.timeIntervalSince1970
        if seconds == seconds.rounded(), abs(seconds) < 1e15 {
            out.appendDecimal(Int64(seconds))
        } else if !out.appendTimestamp(seconds) {
            var text = seconds.description
            text.withUTF8 { out.append($0) }
        }
    }

    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Date {
        Date(timeIntervalSince1970: try s.double())
    }
}

extension DownloadID: StateFieldValue {
    public static func stateBound(_ value: DownloadID) -> Int { JSONBytes.quotedBound(value.rawValue) }
    public static func writeState(_ value: DownloadID, to out: inout JSONBytes.Cursor) {
        out.appendQuoted(value.rawValue)
    }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> DownloadID {
        DownloadID(rawValue: try s.string())
    }
}

/// A field stored as its raw value.
public protocol RawStateFieldValue: StateFieldValue, RawRepresentable where RawValue == String {}

extension RawStateFieldValue {
    public static func stateBound(_ value: Self) -> Int { JSONBytes.quotedBound(value.rawValue) }
    public static func writeState(_ value: Self, to out: inout JSONBytes.Cursor) { out.appendQuoted(value.rawValue) }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Self {
        guard let value = Self(rawValue: try s.string()) else { throw JSONScanner.Unsupported() }
        return value
    }
}

extension DownloadState.Kind: RawStateFieldValue {}
extension PauseCause.Kind: RawStateFieldValue {}
extension BudgetUse: NestedStateFieldValue {}
extension Checksum: NestedStateFieldValue {}
extension PieceHashes: NestedStateFieldValue {}
extension ProxyChoice: NestedStateFieldValue {}
extension FileSelection: NestedStateFieldValue {}
extension TorrentFacts: NestedStateFieldValue {}
extension SeedGoal: NestedStateFieldValue {}

/// A rare or nested value: written and read by Foundation (few downloads have one).
public protocol NestedStateFieldValue: StateFieldValue {}

extension NestedStateFieldValue {
    public static func stateBound(_ value: Self) -> Int { encoded(value).count }
    public static func writeState(_ value: Self, to out: inout JSONBytes.Cursor) {
        encoded(value).withUnsafeBufferPointer { out.append($0) }
    }
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Self {
        try StateCoding.decode(Self.self, s.rawValue())
    }

    private static func encoded(_ value: Self) -> [UInt8] {
        (try? Array(StateCoding.sharedEncoder.encode(value))) ?? Array("null".utf8)
    }
}

extension FailureReason: NestedStateFieldValue {
    /// Plain text, as an older haul stored it, is read without Foundation.
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> FailureReason {
        if try s.peek() == UInt8(ascii: "\"") { return FailureReason(storedText: try s.string()) }
        return try StateCoding.decode(Self.self, s.rawValue())
    }
}

extension Notice: NestedStateFieldValue {
    /// Plain text, as an older haul stored it, is read without Foundation.
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> Notice {
        if try s.peek() == UInt8(ascii: "\"") { return .text(try s.string()) }
        return try StateCoding.decode(Self.self, s.rawValue())
    }
}

/// An element of an array field, written by hand as Foundation would (keys sorted).
public protocol StateArrayElement: Codable, Sendable {
    static func elementBound(_ value: Self) -> Int
    static func writeElement(_ value: Self, to out: inout JSONBytes.Cursor)
}

extension Array: StateFieldValue where Element: StateArrayElement {
    public static func stateBound(_ value: [Element]) -> Int { value.reduce(2) { $0 + 1 + Element.elementBound($1) } }

    public static func writeState(_ value: [Element], to out: inout JSONBytes.Cursor) {
        out.append(UInt8(ascii: "["))
        for (i, element) in value.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            Element.writeElement(element, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Few downloads have one: Foundation reads it.
    public static func readState(from s: inout JSONScanner) throws(JSONScanner.Unsupported) -> [Element] {
        try StateCoding.decode([Element].self, s.rawValue())
    }
}

extension String: StateArrayElement {
    public static func elementBound(_ value: String) -> Int { JSONBytes.quotedBound(value) }
    public static func writeElement(_ value: String, to out: inout JSONBytes.Cursor) { out.appendQuoted(value) }
}

extension RequestHeader: StateArrayElement {
    public static func elementBound(_ value: RequestHeader) -> Int {
        24 + JSONBytes.quotedBound(value.name) + JSONBytes.quotedBound(value.value)
    }

    public static func writeElement(_ header: RequestHeader, to out: inout JSONBytes.Cursor) {
        out.append(#"{"name":"#)
        out.appendQuoted(header.name)
        out.append(#","value":"#)
        out.appendQuoted(header.value)
        out.append(UInt8(ascii: "}"))
    }
}

extension Segment: StateArrayElement {
    public static func elementBound(_ value: Segment) -> Int { 32 + 3 * 20 }

    public static func writeElement(_ segment: Segment, to out: inout JSONBytes.Cursor) {
        out.append(#"{"end":"#)
        out.appendDecimal(segment.end)
        out.append(#","received":"#)
        out.appendDecimal(segment.received)
        out.append(#","start":"#)
        out.appendDecimal(segment.start)
        out.append(UInt8(ascii: "}"))
    }
}

/// Few downloads have sources: Foundation writes each.
extension DownloadSource: StateArrayElement {
    public static func elementBound(_ value: DownloadSource) -> Int { encoded(value).count }

    public static func writeElement(_ value: DownloadSource, to out: inout JSONBytes.Cursor) {
        encoded(value).withUnsafeBufferPointer { out.append($0) }
    }

    private static func encoded(_ value: DownloadSource) -> [UInt8] {
        (try? Array(StateCoding.sharedEncoder.encode(value))) ?? Array("null".utf8)
    }
}
