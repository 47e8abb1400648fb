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
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// What of `d` is on disk: its segments' received bytes, or its first bytes.
    public static func done(_ d: Download) -> [Range<Int64>] {
        if d.state == .finished, let total = d.totalBytes { return [0..<total] }
        if let segments = d.segments {
            return segments.map { $0.start..<($0.start + $0.received) }
        }
        return [0..<d.receivedBytes]
    }
}
