/// Where a torrent's pieces are on a web seed (BEP 19): the torrent's bytes are its files one
/// after the other, so a piece is a range of one file or spans several, and each file is at the
/// seed's URL (a one-file torrent), or under it by the file's path (a torrent of several files).
public struct WebSeedLayout: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// As the metadata names it: the torrent's name first in a torrent of several files.
        public var path: String
        public var size: Int64
        /// Padding between files: zeros, never asked of a seed.
        public var isPad: Bool

        public init(path: String, size: Int64, isPad: Bool = false) {
            self.path = path
            self.size = size
            self.isPad = isPad
        }
    }

    /// Bytes of one file that a piece covers.
    public struct Slice: Sendable, Equatable {
        public var file: Int
        /// Within the file.
        public var range: Range<Int64>
    }

    public let files: [File]
    public let pieceLength: Int64
    public let isSingleFile: Bool
    /// Where each file starts in the torrent's bytes.
    private let offsets: [Int64]
    public let totalSize: Int64

    public init(files: [File], pieceLength: Int64, isSingleFile: Bool) {
        self.files = files
        self.pieceLength = max(1, pieceLength)
        self.isSingleFile = isSingleFile
        var offsets: [Int64] = []
        offsets.reserveCapacity(files.count)
        var offset: Int64 = 0
        for file in files {
            offsets.append(offset)
            offset += file.size
        }
        self.offsets = offsets
        totalSize = offset
    }

    public var pieceCount: Int { Int((totalSize + pieceLength - 1) / pieceLength) }

    /// The piece's bytes in the torrent (the last piece may be shorter).
    public func range(ofPiece piece: Int) -> Range<Int64> {
        let start = min(totalSize, Int64(piece) * pieceLength)
        return start..<min(totalSize, start + pieceLength)
    }

    /// The files' bytes the piece covers, in order (empty files are skipped).
    public func slices(ofPiece piece: Int) -> [Slice] {
        let wanted = range(ofPiece: piece)
        guard !wanted.isEmpty else { return [] }
        // The last file that starts at or before the piece's first byte.
        var low = 0
        var high = offsets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle] <= wanted.lowerBound { low = middle } else { high = middle - 1 }
        }
        var slices: [Slice] = []
        var file = low
        while file < files.count, offsets[file] < wanted.upperBound {
            let start = max(wanted.lowerBound, offsets[file])
            let end = min(wanted.upperBound, offsets[file] + files[file].size)
            if end > start { slices.append(Slice(file: file, range: (start - offsets[file])..<(end - offsets[file]))) }
            file += 1
        }
        return slices
    }

    /// Whether the piece holds bytes of a file that is fetched (`isFetched` by file index).
    public func isWanted(piece: Int, isFetched: (Int) -> Bool) -> Bool {
        slices(ofPiece: piece).contains { !files[$0.file].isPad && isFetched($0.file) }
    }

    /// The URL of `file` on the web seed at `seed`: BEP 19 appends the name to a seed URL that
    /// ends in `/` for a one-file torrent, and the file's path for a torrent of several files;
    /// each path element is percent-encoded.
    public func url(of file: Int, at seed: String) -> String {
        let path = files[file].path.split(separator: "/", omittingEmptySubsequences: true)
            .map { Self.encoded(String($0)) }.joined(separator: "/")
        if isSingleFile { return seed.hasSuffix("/") ? seed + path : seed }
        return seed + (seed.hasSuffix("/") ? "" : "/") + path
    }

    /// `element` with every byte but RFC 3986's unreserved characters percent-encoded.
    public static func encoded(_ element: String) -> String {
        var out = ""
        for byte in element.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + Hex.lowercase([byte]).uppercased()
            }
        }
        return out
    }
}
