import FoundationEssentials
import HaulCore
import HaulStore

/// A `.torrent` file named on the command line (`haul add FILE.torrent`, `haul FILE.torrent`):
/// its bytes go to the engine with the request, which keeps them and checks them with libtorrent.
enum TorrentFile {
    /// Larger than any real torrent's metadata (a torrent of 100,000 files is a few MB).
    static let largestFile = 64 << 20

    /// The bytes of the torrent file `argument` names, or nil when it names none (a URL, a
    /// magnet link, a Metalink).
    static func read(_ argument: String) throws(InputError) -> [UInt8]? {
        guard !argument.contains("://"), !MagnetLink.isMagnet(argument) else { return nil }
        let shown = TerminalText.sanitize(argument)
        let named = argument.hasSuffix(".torrent")
        if !named, let size = LocalFile.size(argument), size > largestFile { return nil }
        let data: Data
        do throws(FileContents.Failure) {
            data = try FileContents.read(argument)
        } catch {
            guard named else { return nil }
            throw InputError("cannot read the torrent file \(shown): \(error.explanation)")
        }
        let bytes = [UInt8](data)
        guard named || looksLikeTorrent(bytes) else { return nil }
        guard bytes.count <= largestFile else {
            throw InputError("\(shown) is larger than a torrent file can be (\(Formatting.bytes(Int64(largestFile))))")
        }
        return bytes
    }

    /// Whether `bytes` start as a torrent's bencoded dictionary does.
    static func looksLikeTorrent(_ bytes: [UInt8]) -> Bool {
        ["d8:announce", "d13:announce-list", "d4:info", "d7:comment"].contains { bytes.starts(with: $0.utf8) }
    }

    /// A request for a torrent file's bytes; the engine gives it its magnet link as its URL.
    static func request(_ bytes: [UInt8], directory: String) -> DownloadRequest {
        var request = DownloadRequest(url: "", directory: directory)
        request.metainfo = bytes
        return request
    }
}
