import CTorrent
import HaulCore

/// What a `.torrent` file or a magnet link says, read by libtorrent: the hostile bytes of a torrent
/// are parsed by the library, never by haul.
struct TorrentMetadata: Sendable, Equatable {
    var infoHashV1: String?
    var infoHashV2: String?
    /// As the torrent gives it: never shown or used as a path before it is made safe.
    var name: String?
    var trackers: [String]
    var webSeeds: [String]
    /// Nil for a magnet link: the swarm sends the rest.
    var totalSize: Int64?
    var fileCount: Int
    var pieceCount: Int
    var pieceLength: Int

    /// Larger than any real torrent's metadata (a torrent of 100,000 files is a few MB).
    static let mostBytes = 64 << 20

    /// The key of the torrent's files in the state folder and its `infoHash` to aria2 clients.
    var infoHash: String { infoHashV1 ?? infoHashV2 ?? "" }

    /// Reads a torrent file's bytes, or says in a sentence why they are not one.
    init(torrent bytes: [UInt8]) throws(InputError) {
        var meta = haul_bt_meta()
        var error = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer {
            haul_bt_parse_torrent($0.baseAddress, $0.count, &meta, &error, error.count)
        }
        guard status == 0 else {
            throw InputError("this is not a torrent file libtorrent can read (\(Self.text(error)))")
        }
        self.init(meta)
        haul_bt_meta_free(&meta)
    }

    /// Reads a magnet link (already checked by ``MagnetLink``).
    init(magnet: String) throws(InputError) {
        var meta = haul_bt_meta()
        var error = [CChar](repeating: 0, count: 256)
        guard haul_bt_parse_magnet(magnet, &meta, &error, error.count) == 0 else {
            throw InputError(
                "'\(TerminalText.sanitize(magnet))' is not a magnet link libtorrent can read (\(Self.text(error)))")
        }
        self.init(meta)
        haul_bt_meta_free(&meta)
    }

    private init(_ meta: haul_bt_meta) {
        var meta = meta
        let v1 = withUnsafeBytes(of: &meta.info_hash_v1) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let v2 = withUnsafeBytes(of: &meta.info_hash_v2) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        infoHashV1 = v1.isEmpty ? nil : v1
        infoHashV2 = v2.isEmpty ? nil : v2
        name = meta.name.map { String(cString: $0) }
        trackers = meta.trackers.map { String(cString: $0).split(separator: "\n").map(String.init) } ?? []
        webSeeds = meta.web_seeds.map { String(cString: $0).split(separator: "\n").map(String.init) } ?? []
        totalSize = meta.has_metadata != 0 ? meta.total_size : nil
        fileCount = Int(meta.file_count)
        pieceCount = Int(meta.piece_count)
        pieceLength = Int(meta.piece_length)
    }

    /// The magnet link that names this torrent: its hashes, its name and its trackers. A torrent
    /// added from a file is kept as this link (its file stays in the state folder).
    var magnet: String {
        var link = "magnet:?"
        var parts: [String] = []
        if let infoHashV1 { parts.append("xt=urn:btih:\(infoHashV1)") }
        if let infoHashV2 { parts.append("xt=urn:btmh:1220\(infoHashV2)") }
        if let name { parts.append("dn=\(Self.queryEncoded(name))") }
        for tracker in trackers { parts.append("tr=\(Self.queryEncoded(tracker))") }
        link += parts.joined(separator: "&")
        return link
    }

    /// `text` with everything but unreserved characters percent-encoded.
    static func queryEncoded(_ text: String) -> String { WebSeedLayout.encoded(text) }

    private static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return TerminalText.sanitize(String(decoding: bytes, as: UTF8.self))
    }
}
