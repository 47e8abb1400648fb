import CTorrent
import HaulCore

/// A finished torrent's files read back and checked against its SHA-1 piece hashes, as
/// `haul verify` checks a file against its checksum: the hashes come from the metadata kept
/// beside the state (its `.torrent`, else the resume data a magnet's metadata is kept in).
public struct TorrentPieceCheck: Sendable, Equatable {
    /// Pieces checked; pieces holding bytes of a file not chosen are left out.
    public var pieces: Int64
    public var failed: Int64
    /// Pieces a file of could not be read whole (gone, or shorter than the torrent says).
    public var unreadable: Int64
    /// The first file holding a bad piece, from the download's own folder or file name.
    public var firstBadFile: String?

    public var isWhole: Bool { failed == 0 && unreadable == 0 }

    /// Checks `download` (a torrent with its files named) kept by the state file at `statePath`.
    public static func run(_ download: Download, statePath: String) throws(InputError) -> TorrentPieceCheck {
        guard let facts = download.torrent, let root = download.fileName else {
            throw InputError("its files are not named yet")
        }
        let store = TorrentStore(statePath: statePath)
        let (metadata, isResumeData): ([UInt8], Int32)
        if let torrent = store.metainfo(facts.infoHash) {
            (metadata, isResumeData) = (torrent, 0)
        } else if let resume = store.resumeData(facts.infoHash) {
            (metadata, isResumeData) = (resume, 1)
        } else {
            throw InputError("its metadata is not kept beside the state, so there are no piece hashes to check")
        }
        let priorities = download.request.selectedFiles.map { $0.priorities(count: facts.fileCount) }
        var result = haul_bt_piece_check()
        var error = [CChar](repeating: 0, count: 256)
        let status = metadata.withUnsafeBufferPointer { data in
            withOptionalBytes(priorities) { chosen, count in
                haul_bt_check_pieces(
                    data.baseAddress, data.count, isResumeData, download.directory, root, chosen, count, &result,
                    &error, error.count)
            }
        }
        defer { haul_bt_free(result.first_bad_file) }
        switch status {
        case 0:
            return TorrentPieceCheck(
                pieces: result.pieces, failed: result.failed, unreadable: result.unreadable,
                firstBadFile: result.first_bad_file.map { String(cString: $0) })
        case -2:
            throw InputError("a BitTorrent v2 torrent's pieces are checked by libtorrent only while it runs")
        default:
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw InputError("its metadata cannot be read (\(TerminalText.sanitize(message)))")
        }
    }

    /// `bytes`' address and count for a C call, NULL and 0 when there are none.
    private static func withOptionalBytes<R>(
        _ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?, Int32) -> R
    ) -> R {
        guard let bytes else { return body(nil, 0) }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress, Int32($0.count)) }
    }
}
