/// A short, stable identifier for a download: six lowercase hex digits.
///
/// Users type these on the command line, so they are short; any unique prefix is
/// accepted (see ``DownloadSelector``).
public struct DownloadID: RawRepresentable, Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: DownloadID, rhs: DownloadID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A new random id that is not in `taken`.
    public static func generate<R: RandomNumberGenerator>(avoiding taken: Set<DownloadID>, using rng: inout R) -> DownloadID {
        while true {
            let value = UInt32.random(in: 0..<0x100_0000, using: &rng)
            let hex = String(value, radix: 16)
            let id = DownloadID(rawValue: String(repeating: "0", count: 6 - hex.count) + hex)
            if !taken.contains(id) { return id }
        }
    }
}
