import HaulCore

/// Checks a finished file's pieces against a Metalink's piece hashes, and says which sources
/// wrote a piece that failed.
enum PieceCheck {
    /// The pieces of the file at `path` whose hash is not the expected one.
    static func failing(_ hashes: PieceHashes, path: String, total: Int64) throws(FileError) -> [Int] {
        var failing: [Int] = []
        for index in hashes.hashes.indices {
            let digest = try FileChecksum.digest(
                of: path, hashes.algorithm, range: hashes.range(of: index, total: total))
            if digest != hashes.hashes[index] { failing.append(index) }
        }
        return failing
    }

    /// The sources (by index, 0 the first response's) that wrote any byte of `range`.
    static func writers(of range: Range<Int64>, in writtenBy: [(range: Range<Int64>, source: Int)]) -> Set<Int> {
        Set(writtenBy.filter { $0.range.overlaps(range) }.map(\.source))
    }

    /// The sources to ban, from the writers of each failed piece: those that wrote into every
    /// one of them; else those that wrote one alone. A piece written by several is not enough to
    /// ban any of them (it is fetched again, and the next round tells).
    static func blame(_ writers: [Set<Int>]) -> Set<Int> {
        guard let first = writers.first else { return [] }
        let common = writers.dropFirst().reduce(first) { $0.intersection($1) }
        if !common.isEmpty { return common }
        return Set(writers.filter { $0.count == 1 }.flatMap { $0 })
    }

    /// A map of a file of `total` bytes that holds everything but `missing` (sorted, apart).
    static func map(total: Int64, missing: [Range<Int64>]) -> [Segment] {
        var map: [Segment] = []
        var position: Int64 = 0
        for hole in missing.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if hole.lowerBound > position {
                map.append(Segment(start: position, end: hole.lowerBound, received: hole.lowerBound - position))
            }
            map.append(Segment(start: hole.lowerBound, end: hole.upperBound))
            position = hole.upperBound
        }
        if position < total { map.append(Segment(start: position, end: total, received: total - position)) }
        return map
    }
}
