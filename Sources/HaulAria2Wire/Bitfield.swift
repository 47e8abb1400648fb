import HaulCore

/// A download's progress as aria2's `bitfield`: one bit per piece, the first piece in the
/// highest bit, set when every byte of the piece is on disk, in hex.
public enum Bitfield {
    /// The piece length reported for HTTP downloads (aria2's default `--piece-length`).
    public static let pieceLength: Int64 = 1 << 20

    public static func pieces(total: Int64) -> Int64 { (total + pieceLength - 1) / pieceLength }

    /// The hex digits for a file of `total` bytes whose bytes `done` are on disk (ranges sorted
    /// or not, ends exclusive).
    public static func hex(total: Int64, done: [Range<Int64>]) -> String {
        let count = Int(pieces(total: total))
        var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
        for range in done {
            // Pieces wholly inside the range: from the first piece starting at or after its start
            // to the last one ending at or before its end (the file's last piece may be short).
            var piece = (range.lowerBound + pieceLength - 1) / pieceLength
            while piece < Int64(count) {
                let end = min((piece + 1) * pieceLength, total)
                guard end <= range.upperBound else { break }
                bytes[Int(piece / 8)] |= 0x80 >> UInt8(piece % 8)
                piece += 1
            }
        }
        return Hex.lowercase(bytes)
    }

    /// What of `d` is on disk: its segments' received bytes, or its first bytes.
    public static func done(_ d: Download) -> [Range<Int64>] {
        if d.state == .finished, let total = d.totalBytes { return [0..<total] }
        if let segments = d.segments {
            return segments.map { $0.start..<($0.start + $0.received) }
        }
        return [0..<d.receivedBytes]
    }

    /// What a `bitfield` says is on disk, as a map of the whole file: each run of pieces on disk
    /// is one segment received whole, each run of missing pieces one with nothing received. Nil
    /// when the hex digits or the numbers cannot describe the file.
    public static func segments(hex: String, pieceLength: Int64, total: Int64) -> [Segment]? {
        guard pieceLength > 0, total > 0 else { return nil }
        let count = (total + pieceLength - 1) / pieceLength
        let digits = Array(hex.utf8)
        guard Int64(digits.count) * 4 >= count else { return nil }
        var segments: [Segment] = []
        var runStart: Int64 = 0
        var runSet = false
        for piece in 0...count {
            var set = !runSet
            if piece < count {
                guard let value = nibble(digits[Int(piece / 4)]) else { return nil }
                set = value & (8 >> UInt8(piece % 4)) != 0
            }
            guard piece == 0 || set != runSet else { continue }
            if piece > 0 {
                let start = runStart * pieceLength
                let end = min(piece * pieceLength, total)
                segments.append(Segment(start: start, end: end, received: runSet ? end - start : 0))
            }
            (runStart, runSet) = (piece, set)
        }
        return segments
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
