import FoundationEssentials

/// A hash function a download's file can be checked with, by aria2's names.
public enum ChecksumAlgorithm: String, CaseIterable, Sendable, Codable {
    case md5 = "md5"
    case sha1 = "sha-1"
    case sha224 = "sha-224"
    case sha256 = "sha-256"
    case sha384 = "sha-384"
    case sha512 = "sha-512"

    /// The algorithm called `name`: aria2's names, with or without the dash, any case
    /// (`sha-256`, `SHA256`).
    public init?(name: String) {
        let plain = name.lowercased().replacing("-", with: "")
        guard let found = Self.allCases.first(where: { $0.rawValue.replacing("-", with: "") == plain })
        else { return nil }
        self = found
    }

    /// The algorithm whose digests have `count` hex digits (as a `sha256sum` line shows them).
    public init?(hexDigits count: Int) {
        guard let found = Self.allCases.first(where: { $0.hexDigits == count }) else { return nil }
        self = found
    }

    /// Hex digits of a digest.
    public var hexDigits: Int {
        switch self {
        case .md5: return 32
        case .sha1: return 40
        case .sha224: return 56
        case .sha256: return 64
        case .sha384: return 96
        case .sha512: return 128
        }
    }

    /// The name a person reads: "SHA-256", "MD5".
    public var displayName: String { rawValue.uppercased() }
}

/// The digest a finished file must have: an algorithm and its lowercase hex digest.
///
/// Stored and sent as aria2 writes it, `sha-256=<hex>`.
public struct Checksum: Sendable, Equatable, Hashable {
    public let algorithm: ChecksumAlgorithm
    /// Lowercase hex.
    public let hex: String

    /// Checks that `hex` is a digest of `algorithm` (any case).
    public init(_ algorithm: ChecksumAlgorithm, hex: String) throws(InputError) {
        let lower = hex.lowercased()
        guard lower.utf8.count == algorithm.hexDigits, lower.utf8.allSatisfy(\.isHexDigit) else {
            throw InputError("a \(algorithm.displayName) checksum is \(algorithm.hexDigits) hexadecimal digits")
        }
        self.algorithm = algorithm
        self.hex = lower
    }

    /// `TYPE=HEX`, as `--checksum` and aria2's `checksum=` take it.
    public init(parsing text: String) throws(InputError) {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
        guard parts.count == 2 else {
            throw InputError("a checksum is written TYPE=HEX, e.g. sha-256=9f86d0…")
        }
        guard let algorithm = ChecksumAlgorithm(name: parts[0]) else {
            let names = ChecksumAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
            throw InputError("'\(TerminalText.sanitize(parts[0]))' is not a checksum type haul knows (\(names))")
        }
        try self.init(algorithm, hex: parts[1])
    }

    /// `sha-256=<hex>`.
    public var text: String { algorithm.rawValue + "=" + hex }
}

extension Checksum: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x61...0x66).contains(self)
    }
}
