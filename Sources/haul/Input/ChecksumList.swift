import FoundationEssentials
import HaulCore

/// A checksum file as `sha256sum`, `sha512sum`, `sha1sum` and `md5sum` write it (`HEX  NAME`,
/// `HEX *NAME`, the escaped form for names with a backslash or a line break, and the `--tag`
/// form `SHA256 (NAME) = HEX`). The algorithm of a plain line is told by its digest's length.
public struct ChecksumList: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The name as listed (it may have folders: `./iso/a.iso`).
        public var name: String
        public var checksum: Checksum
    }

    public var entries: [Entry]

    /// Reads `text`; a line that is none of the forms is named with its number.
    public init(parsing text: String) throws(InputError) {
        entries = []
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.trimmed().isEmpty || line.hasPrefix("#") { continue }
            guard let entry = Self.entry(line) else {
                throw InputError("line \(index + 1) of the checksum file is not 'HEX  NAME' as sha256sum writes it")
            }
            entries.append(entry)
        }
        if entries.isEmpty { throw InputError("the checksum file lists no checksums") }
    }

    /// The checksum listed for a file called `fileName`: the line naming exactly it, else the
    /// line whose path ends in it.
    public func checksum(for fileName: String) -> Checksum? {
        if let exact = entries.first(where: { $0.name == fileName }) { return exact.checksum }
        return entries.first { PathText.lastComponent(of: $0.name) == fileName }?.checksum
    }

    private static func entry(_ line: Substring) -> Entry? {
        if let tagged = taggedEntry(line) { return tagged }
        var line = line
        // A leading backslash: the name has `\\` and `\n` escapes.
        let escaped = line.hasPrefix("\\")
        if escaped { line = line.dropFirst() }
        guard let space = line.firstIndex(of: " ") else { return nil }
        let hex = line[..<space]
        var name = line[line.index(after: space)...]
        // Text mode puts a space before the name, binary mode a `*`.
        guard let mode = name.first, mode == " " || mode == "*" else { return nil }
        name = name.dropFirst()
        guard !name.isEmpty, let algorithm = ChecksumAlgorithm(hexDigits: hex.utf8.count),
            let checksum = try? Checksum(algorithm, hex: String(hex))
        else { return nil }
        return Entry(name: escaped ? unescape(name) : String(name), checksum: checksum)
    }

    /// `SHA256 (name) = hex`.
    private static func taggedEntry(_ line: Substring) -> Entry? {
        guard let open = line.firstRange(of: " ("), let close = line.ranges(of: ") = ").last,
            open.upperBound <= close.lowerBound,
            let algorithm = ChecksumAlgorithm(name: String(line[..<open.lowerBound])),
            let checksum = try? Checksum(algorithm, hex: String(line[close.upperBound...]))
        else { return nil }
        return Entry(name: String(line[open.upperBound..<close.lowerBound]), checksum: checksum)
    }

    private static func unescape(_ name: Substring) -> String {
        var out = ""
        var iterator = name.makeIterator()
        while let c = iterator.next() {
            guard c == "\\", let next = iterator.next() else {
                out.append(c)
                continue
            }
            out.append(next == "n" ? "\n" : next)
        }
        return out
    }
}
