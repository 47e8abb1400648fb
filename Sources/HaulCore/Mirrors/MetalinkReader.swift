import CLibXML2
import FoundationEssentials

/// Reads Metalink 4 and 3 elements as they come, through libxml2's pull reader; an element's
/// text is kept until it ends. No DTD is loaded, no entity is substituted and nothing is fetched
/// from the network, so a document cannot reach a file or a host.
struct MetalinkReader {
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
            guard let raw = name else { return nil }
            let asked = try? RequestedPath(raw)
            guard let name = asked?.name ?? FileNameSanitizer.sanitize(String(raw.split(separator: "/").last ?? ""))
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
                name: name, folders: asked?.folders ?? [], size: size, checksum: checksum, pieces: pieces,
                sources: DownloadSource.ordered(sources, excluding: ""), skippedSchemes: skipped)
        }
    }

    var files: [Draft] = []
    private var sawRoot = false
    private var problem: String?
    private var current: Draft?
    private var text = ""
    private var attributes: [String: String] = [:]
    private var inPieces = false

    /// Reads the whole document; a document that is not well-formed XML, has no `metalink`
    /// root or ends inside a `<file>` is refused with the line it failed near.
    mutating func read(_ data: Data) throws(InputError) {
        let failedNear = data.withUnsafeBytes { readAll($0) }
        if let problem { throw InputError(problem) }
        if let line = failedNear {
            throw InputError("this is not a Metalink document (XML that cannot be read, near line \(max(line, 1)))")
        }
    }

    /// Reads every node of `bytes`; nil when the document was whole, else the line it failed near.
    private mutating func readAll(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        guard
            let reader = xmlReaderForMemory(
                bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, nil, Int32(options))
        else { return 0 }
        defer { xmlFreeTextReader(reader) }
        // libxml2 would print its own messages to the terminal: the caller's sentence says it instead.
        xmlTextReaderSetStructuredErrorHandler(reader, { _, _ in }, nil)
        var status: Int32 = 1
        while problem == nil {
            status = xmlTextReaderRead(reader)
            guard status == 1 else { break }
            step(reader)
        }
        return status == 0 && sawRoot && current == nil ? nil : xmlTextReaderGetParserLineNumber(reader)
    }

    /// Hands the node the reader is on to the start, text or end handler.
    private mutating func step(_ reader: xmlTextReaderPtr) {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            let element = Self.string(xmlTextReaderConstLocalName(reader))
            let empty = xmlTextReaderIsEmptyElement(reader) == 1
            var attributes: [String: String] = [:]
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                attributes[Self.string(xmlTextReaderConstLocalName(reader))] = Self.string(
                    xmlTextReaderConstValue(reader))
            }
            start(element, attributes: attributes)
            if empty { end(element) }
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
            if text.utf8.count < 64 * 1024 { text += Self.string(xmlTextReaderConstValue(reader)) }
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            end(Self.string(xmlTextReaderConstLocalName(reader)))
        default:
            break
        }
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    private mutating func start(_ element: String, attributes: [String: String]) {
        text = ""
        self.attributes = attributes
        switch element {
        case "metalink":
            sawRoot = true
        case "file":
            guard files.count < Metalink.mostFiles else {
                problem = "the Metalink document lists more than \(Metalink.mostFiles) files"
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

    private mutating func end(_ element: String) {
        let value = text.trimmed()
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
