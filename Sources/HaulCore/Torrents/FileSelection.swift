/// Which files of a torrent to fetch, in aria2's `--select-file` syntax: indexes from 1, commas
/// between them, ranges with a dash (`1,3-5`). Files outside it are skipped (not written).
public struct FileSelection: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Sorted, merged ranges of 1-based file indexes.
    public private(set) var ranges: [ClosedRange<Int>]

    /// The selection `text` says, or the sentence that says why it is not one.
    public init(_ text: String) throws(InputError) {
        var ranges: [ClosedRange<Int>] = []
        let shown = TerminalText.sanitize(text)
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = String(item).trimmingCharacters(where: \.isWhitespace).split(
                separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let low = Int(bounds[0]), let high = Int(bounds.last!), low >= 1,
                low <= high
            else {
                throw InputError("'\(shown)' is not a list of file numbers (say it as 1,3-5; the first file is 1)")
            }
            ranges.append(low...high)
        }
        self.ranges = Self.merged(ranges)
    }

    public init(ranges: [ClosedRange<Int>]) { self.ranges = Self.merged(ranges) }

    /// Whether the file at `index` (from 1) is fetched.
    public func contains(_ index: Int) -> Bool { ranges.contains { $0.contains(index) } }

    /// aria2's form: `1,3-5`.
    public var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }

    /// One priority per file for `count` files: 4 (normal) when selected, 0 (skip) when not.
    public func priorities(count: Int) -> [UInt8] { (1...max(count, 1)).prefix(count).map { contains($0) ? 4 : 0 } }

    /// The selection with file `index` (from 1) in or out of it. It works on the ranges, never
    /// on every index: a torrent of 100,000 files is toggled from the UI thread between frames.
    public func toggled(_ index: Int) -> FileSelection {
        guard let at = ranges.firstIndex(where: { $0.contains(index) }) else {
            return FileSelection(ranges: ranges + [index...index])
        }
        let range = ranges[at]
        var rest: [ClosedRange<Int>] = []
        if range.lowerBound < index { rest.append(range.lowerBound...(index - 1)) }
        if index < range.upperBound { rest.append((index + 1)...range.upperBound) }
        var next = self
        next.ranges.replaceSubrange(at...at, with: rest)
        return next
    }

    private static func merged(_ ranges: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, range.lowerBound <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
