/// A short, stable identifier for a download: six lowercase hex digits.
///
/// Users type these on the command line, so they are short; any unique prefix is
/// accepted (see ``DownloadSelector``).
public struct DownloadID: RawRepresentable, Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    /// Length and value of the lower-case hex digits (what haul makes), for hashing and
    /// comparing without touching the string: ids key every table, 100,000 of them at scale.
    /// ``notHex`` for anything else, which then compares by its text.
    private let packed: UInt32
    private static let notHex = UInt32.max

    public init(rawValue: String) {
        self.rawValue = rawValue
        packed = Self.pack(rawValue)
    }

    public init(from decoder: Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    private static func pack(_ text: String) -> UInt32 {
        var value: UInt32 = 0
        var count: UInt32 = 0
        for byte in text.utf8 {
            guard count < 7 else { return notHex }
            switch byte {
            case 0x30...0x39: value = value << 4 | UInt32(byte - 0x30)
            case 0x61...0x66: value = value << 4 | UInt32(byte - 0x61 + 10)
            default: return notHex
            }
            count += 1
        }
        return count << 28 | value
    }

    /// The id's length and hex value in one number, unique among hex ids of up to seven digits
    /// (every id haul makes); nil for any other id.
    public var packedHex: UInt32? { packed == Self.notHex ? nil : packed }

    public static func == (a: DownloadID, b: DownloadID) -> Bool {
        a.packed == b.packed && (a.packed != notHex || a.rawValue == b.rawValue)
    }

    public func hash(into hasher: inout Hasher) {
        if packed != Self.notHex { hasher.combine(packed) } else { hasher.combine(rawValue) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: DownloadID, rhs: DownloadID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A new random id that is not in `taken`.
    public static func generate<R: RandomNumberGenerator>(avoiding taken: Set<DownloadID>, using rng: inout R)
        -> DownloadID
    {
        generate(avoiding: { taken.contains($0) }, using: &rng)
    }

    /// A fresh random id for which `isTaken` is false; the caller's own index answers, so
    /// adding to a large table needs no copy of its keys. Inlinable, so that the engine's call
    /// is specialised for its generator.
    @inlinable
    public static func generate<R: RandomNumberGenerator>(avoiding isTaken: (DownloadID) -> Bool, using rng: inout R)
        -> DownloadID
    {
        while true {
            let id = DownloadID(hexDigitsOf: UInt32(truncatingIfNeeded: rng.next() >> 40))
            if !isTaken(id) { return id }
        }
    }

    /// The six hex digits of the low 24 bits of `value`, zero-padded.
    @usableFromInline
    init(hexDigitsOf value: UInt32) {
        let text = String(unsafeUninitializedCapacity: 6) { buffer in
            for i in 0..<6 {
                let digit = UInt8(truncatingIfNeeded: value >> UInt32(20 - 4 * i) & 0xF)
                buffer[i] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
            }
            return 6
        }
        rawValue = text
        packed = 6 << 28 | value & 0xFF_FFFF
    }
}
