import FoundationEssentials

/// A Metalink document (RFC 5854, `.meta4`; Metalink 3 too): the files it describes, each with
/// the URLs it is served from, its size and hashes, and hashes of its pieces.
public struct Metalink: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Sanitized: the file's name, never a path.
        public var name: String
        /// The folders the document puts the file in (`name="linux/a.iso"`), outermost first:
        /// below the download's folder, as aria2c makes them. Empty for a plain name, and for a
        /// name that would lead out of the folder (`..`, an absolute path), which keeps its last
        /// part only.
        public var folders: [String] = []
        public var size: Int64?
        /// The strongest whole-file hash haul can check.
        public var checksum: Checksum?
        public var pieces: PieceHashes?
        /// http and https URLs, in the order to try them.
        public var sources: [DownloadSource]
        /// Schemes of the URLs left out (`ftp`, `file`, torrents), for one notice.
        public var skippedSchemes: [String]

        /// The name with its folders, as a request asks for it (see ``RequestedPath``).
        public var path: String { (folders + [name]).joined(separator: "/") }

        /// The download of this file into `directory`: from its first URL, named as the document
        /// names it, with its other URLs as mirrors and its hashes (`checksum` wins over its
        /// own); nil when it has no http or https URL. No headers: its URLs are not hosts the
        /// user named.
        public func request(into directory: String, checksum: Checksum? = nil) -> DownloadRequest? {
            guard let first = sources.first else { return nil }
            var request = DownloadRequest(
                url: first.url, directory: directory, requestedName: path, checksum: checksum ?? self.checksum)
            request.sources = Array(sources.dropFirst())
            request.pieceHashes = pieces
            return request
        }
    }

    public var files: [File]

    /// The media type servers send a Metalink 4 document as.
    public static let mediaType = "application/metalink4+xml"
    /// Files one document may list; a longer one is refused rather than half-added.
    public static let mostFiles = 10_000
    /// Bytes one document may have.
    public static let mostBytes = 32 << 20

    /// Reads `data`; every problem is one sentence.
    public init(parsing data: Data) throws(InputError) {
        guard data.count <= Self.mostBytes else {
            throw InputError("the Metalink document is larger than \(Formatting.bytes(Int64(Self.mostBytes)))")
        }
        var reader = MetalinkReader()
        try reader.read(data)
        let files = reader.files.compactMap(\.finished)
        guard !files.isEmpty else { throw InputError("the Metalink document describes no file haul can download") }
        self.files = files
    }

    /// Whether a response's `Content-Type` is a Metalink document's.
    public static func isMetalink(contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmed().lowercased()
        else { return false }
        return type == mediaType || type == "application/metalink+xml"
    }
}

/// Hashes of a file's pieces of `length` bytes each (the last may be shorter): a piece that
/// fails its hash is fetched again from another source.
public struct PieceHashes: Codable, Sendable, Equatable, Hashable {
    public var algorithm: ChecksumAlgorithm
    public var length: Int64
    /// Lowercase hex, one per piece.
    public var hashes: [String]

    public init(algorithm: ChecksumAlgorithm, length: Int64, hashes: [String]) {
        self.algorithm = algorithm
        self.length = length
        self.hashes = hashes
    }

    /// The bytes of piece `index` in a file of `total` bytes.
    public func range(of index: Int, total: Int64) -> Range<Int64> {
        let start = Int64(index) * length
        return start..<min(total, start + length)
    }

    /// Whether they cover a file of `total` bytes exactly, one hash per piece.
    public func fit(total: Int64) -> Bool {
        length > 0 && Int64(hashes.count) == (total + length - 1) / length
    }
}
