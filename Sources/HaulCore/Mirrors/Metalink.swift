import Foundation
import FoundationXML

/// A Metalink document (RFC 5854, `.meta4`; Metalink 3 too): the files it describes, each with
/// the URLs it is served from, its size and hashes, and hashes of its pieces.
public struct Metalink: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Sanitized: a file name, never a path (a name with folders keeps its last part).
        public var name: String
        public var size: Int64?
        /// The strongest whole-file hash haul can check.
        public var checksum: Checksum?
        public var pieces: PieceHashes?
        /// http and https URLs, in the order to try them.
        public var sources: [DownloadSource]
        /// Schemes of the URLs left out (`ftp`, `file`, torrents), for one notice.
        public var skippedSchemes: [String]

        /// The download of this file into `directory`: from its first URL, named as the document
        /// names it, with its other URLs as mirrors and its hashes (`checksum` wins over its
        /// own); nil when it has no http or https URL. No headers: its URLs are not hosts the
        /// user named.
        public func request(into directory: String, checksum: Checksum? = nil) -> AddRequest? {
            guard let first = sources.first else { return nil }
            var request = AddRequest(
                url: first.url, directory: directory, fileName: name, checksum: checksum ?? self.checksum)
            request.mirrors = Array(sources.dropFirst())
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
        let reader = MetalinkReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem { throw InputError(problem) }
        guard parsed, parser.parserError == nil, reader.sawRoot, !reader.isInsideFile else {
            let line = parser.lineNumber
            throw InputError("this is not a Metalink document (XML that cannot be read, near line \(line))")
        }
        let files = reader.files.compactMap(\.finished)
        guard !files.isEmpty else { throw InputError("the Metalink document describes no file haul can download") }
        self.files = files
    }

    /// Whether a response's `Content-Type` is a Metalink document's.
    public static func isMetalink(contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
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

/// Reads Metalink 4 and 3 elements as they come; an element's text is kept until it ends.
private final class MetalinkReader: NSObject, XMLParserDelegate {
    struct Draft {
        var name: String?
        var size: Int64?
        var hashes: [(String, String)] = []
        var pieceType: String?
        var pieceLength: Int64?
        var pieceHashes: [String] = []
        var urls: [(String, Int?)] = []
        var skipped: [String] = []

        var finished: Metalink.File? {
            guard let raw = name, let name = FileNameSanitizer.sanitize(String(raw.split(separator: "/").last ?? ""))
            else { return nil }
            let strength: [ChecksumAlgorithm] = [.sha512, .sha384, .sha256, .sha224, .sha1, .md5]
            let checksums = hashes.compactMap { type, hex in
                ChecksumAlgorithm(name: type).flatMap { try? Checksum($0, hex: hex) }
            }
            let checksum = strength.lazy.compactMap { a in checksums.first { $0.algorithm == a } }.first
            var pieces: PieceHashes?
            if let type = pieceType.flatMap(ChecksumAlgorithm.init(name:)), let length = pieceLength, length > 0,
                !pieceHashes.isEmpty, pieceHashes.allSatisfy({ $0.count == type.hexDigits })
            {
                let read = PieceHashes(algorithm: type, length: length, hashes: pieceHashes.map { $0.lowercased() })
                // Hashes that do not cover the file exactly are of another file: the whole-file hash still holds.
                if size.map(read.fit(total:)) ?? false { pieces = read }
            }
            let sources = urls.map { DownloadSource(url: $0.0, origin: .metalink, priority: $0.1) }
            return Metalink.File(
                name: name, size: size, checksum: checksum, pieces: pieces,
                sources: DownloadSource.ordered(sources, excluding: ""), skippedSchemes: skipped)
        }
    }

    var files: [Draft] = []
    var sawRoot = false
    var problem: String?
    private var current: Draft?
    private var text = ""
    private var attributes: [String: String] = [:]
    private var inPieces = false

    /// A `<file>` began and did not end: the document was cut short.
    var isInsideFile: Bool { current != nil }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        text = ""
        self.attributes = attributes
        switch element {
        case "metalink":
            sawRoot = true
        case "file":
            guard files.count < Metalink.mostFiles else {
                problem = "the Metalink document lists more than \(Metalink.mostFiles) files"
                parser.abortParsing()
                return
            }
            current = Draft(name: attributes["name"])
        case "pieces":
            inPieces = true
            current?.pieceType = attributes["type"]
            current?.pieceLength = attributes["length"].flatMap { Int64($0) }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < 64 * 1024 { text += string }
    }

    func parser(
        _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
    ) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch element {
        case "file":
            if let current { files.append(current) }
            current = nil
        case "size":
            current?.size = Int64(value)
        case "pieces":
            inPieces = false
        case "hash":
            if inPieces {
                current?.pieceHashes.append(value)
            } else if let type = attributes["type"] {
                current?.hashes.append((type, value))
            }
        case "url":
            let scheme = value.split(separator: ":").first.map { $0.lowercased() } ?? ""
            if ["http", "https"].contains(scheme), URLParts(value) != nil {
                // Metalink 4's priority: 1 is first; Metalink 3's preference: 100 is first.
                let priority =
                    attributes["priority"].flatMap { Int($0) }
                    ?? attributes["preference"].flatMap { Int($0) }.map { 101 - $0 }
                current?.urls.append((value, priority))
            } else if !scheme.isEmpty {
                current?.skipped.append(scheme)
            }
        default:
            break
        }
        text = ""
    }
}
