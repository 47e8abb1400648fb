import FoundationEssentials
import HaulCore
import HaulStore

/// `haul add FILE.meta4`: a Metalink document on disk becomes one download per `<file>`, with its
/// URLs as sources, its hash as the checksum and its piece hashes.
enum MetalinkFile {
    /// The document `argument` names, or nil when `argument` is a URL, not a file.
    static func read(_ argument: String) throws(InputError) -> Metalink? {
        guard !argument.contains("://") else { return nil }
        let shown = TerminalText.sanitize(argument)
        let looksLikeOne = argument.hasSuffix(".meta4") || argument.hasSuffix(".metalink")
        if !looksLikeOne, let size = LocalFile.size(argument), size > TorrentFile.largestFile {
            throw notOne(shown)
        }
        let data: Data
        do throws(FileContents.Failure) {
            data = try FileContents.read(argument)
        } catch {
            // Not a file: the URL check says what is wrong with it.
            guard looksLikeOne else { return nil }
            throw InputError("cannot read the Metalink file \(shown): \(error.explanation)")
        }
        do {
            return try Metalink(parsing: data)
        } catch {
            // A file that is not XML at all is most likely a list of URLs given without -i.
            guard looksLikeOne || data.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "<") else {
                throw notOne(shown)
            }
            throw InputError("\(shown): \(error.message)")
        }
    }

    /// One request per file the document describes, into `directory`. The user's `--checksum`
    /// wins over the document's hash; headers and cookies are never sent to a Metalink's URLs.
    static func requests(_ metalink: Metalink, directory: String, checksum: Checksum?) -> [DownloadRequest] {
        var skipped = Set<String>()
        var requests: [DownloadRequest] = []
        for file in metalink.files {
            skipped.formUnion(file.skippedSchemes)
            guard let request = file.request(into: directory, checksum: checksum) else {
                Console.warn("\(TerminalText.sanitize(file.name)): the Metalink gives no http or https URL; skipped")
                continue
            }
            requests.append(request)
        }
        if !skipped.isEmpty {
            let names = skipped.sorted().map { TerminalText.sanitize($0) }.joined(separator: ", ")
            Console.warn("the Metalink's \(names) URLs are skipped: haul fetches over http and https")
        }
        return requests
    }

    /// The answer to a file that is neither a torrent nor a Metalink: most likely a list of URLs.
    private static func notOne(_ shown: String) -> InputError {
        InputError(
            "\(shown) is a file but not a torrent or Metalink file; for the URLs it lists, one per line: haul -i "
                + "\(shown) (or haul add -i \(shown) to queue them)")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}
