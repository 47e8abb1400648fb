import Foundation

/// A reader of bencoded data (BEP 3), for tests that look inside a torrent or libtorrent's resume
/// data. It reads what tests write and libtorrent saves; it is not haul's (haul never parses
/// torrents itself).
public indirect enum Bencode: Equatable, Sendable {
    case integer(Int64)
    case bytes([UInt8])
    case list([Bencode])
    case dictionary([String: Bencode])

    public init?(_ data: [UInt8]) {
        var index = 0
        guard let value = Self.read(data, &index), index == data.count else { return nil }
        self = value
    }

    public subscript(key: String) -> Bencode? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }

    public var integer: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    public var bytes: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    /// Bencoded `self` (dictionary keys sorted, as BEP 3 asks).
    public var encoded: [UInt8] {
        switch self {
        case .integer(let i): return Array("i\(i)e".utf8)
        case .bytes(let b): return Array("\(b.count):".utf8) + b
        case .list(let items): return [UInt8(ascii: "l")] + items.flatMap(\.encoded) + [UInt8(ascii: "e")]
        case .dictionary(let d):
            return [UInt8(ascii: "d")]
                + d.keys.sorted().flatMap { Bencode.bytes(Array($0.utf8)).encoded + d[$0]!.encoded }
                + [UInt8(ascii: "e")]
        }
    }

    private static func read(_ data: [UInt8], _ i: inout Int) -> Bencode? {
        guard i < data.count else { return nil }
        switch data[i] {
        case UInt8(ascii: "i"):
            guard let end = data[i...].firstIndex(of: UInt8(ascii: "e")),
                let value = Int64(String(decoding: data[(i + 1)..<end], as: UTF8.self))
            else { return nil }
            i = end + 1
            return .integer(value)
        case UInt8(ascii: "l"):
            i += 1
            var items: [Bencode] = []
            while i < data.count, data[i] != UInt8(ascii: "e") {
                guard let item = read(data, &i) else { return nil }
                items.append(item)
            }
            i += 1
            return .list(items)
        case UInt8(ascii: "d"):
            i += 1
            var d: [String: Bencode] = [:]
            while i < data.count, data[i] != UInt8(ascii: "e") {
                guard case .bytes(let key)? = read(data, &i), let value = read(data, &i) else { return nil }
                d[String(decoding: key, as: UTF8.self)] = value
            }
            i += 1
            return .dictionary(d)
        default:
            guard let colon = data[i...].firstIndex(of: UInt8(ascii: ":")),
                let length = Int(String(decoding: data[i..<colon], as: UTF8.self)), length >= 0,
                colon + 1 + length <= data.count
            else { return nil }
            i = colon + 1 + length
            return .bytes(Array(data[(colon + 1)..<i]))
        }
    }
}
