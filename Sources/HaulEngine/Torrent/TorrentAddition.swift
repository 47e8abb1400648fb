import CTorrent
import HaulCore

/// How a torrent goes into the session: from its resume data when there is some (pieces on disk
/// are not fetched again), else from its `.torrent`, else from its magnet link.
struct TorrentAddition: Sendable {
    enum Source: Sendable {
        case resumeData([UInt8])
        case metainfo([UInt8])
        case magnet(String)
    }

    var source: Source
    var directory: String
    /// The name its files go under when it is not the torrent's own (taken, or made safe).
    var rootName: String?
    var priorities: [UInt8]?
    var downloadLimit: Int64?
    var uploadLimit: Int64?
    /// The most peers it connects to; nil: no limit of its own.
    var peerLimit: Int?
    var pex: Bool
    /// Seeds without requesting a piece: a finished torrent seeding again never fetches what
    /// went missing from its files.
    var uploadOnly = false

    func withBridgeParams<R>(number: UInt64, _ body: (UnsafePointer<haul_bt_add_params>) -> R) -> R {
        var params = haul_bt_add_params()
        params.id = number
        params.download_limit = downloadLimit ?? 0
        params.upload_limit = uploadLimit ?? 0
        params.max_peers = Int32(clamping: peerLimit ?? 0)
        params.pex = pex ? 1 : 0
        // haul fetches from web seeds itself, through its own HTTP (see ``WebSeedFeeder``).
        params.without_web_seeds = 1
        params.upload_only = uploadOnly ? 1 : 0
        let bytes: [UInt8]
        var magnet: String?
        switch source {
        case .resumeData(let data): bytes = data
        case .metainfo(let data): bytes = data
        case .magnet(let link):
            bytes = []
            magnet = link
        }
        let priorities = self.priorities ?? []
        return directory.withCString { directory in
            params.save_path = directory
            return bytes.withUnsafeBufferPointer { buffer in
                switch source {
                case .resumeData:
                    params.resume = buffer.baseAddress
                    params.resume_length = buffer.count
                case .metainfo:
                    params.torrent = buffer.baseAddress
                    params.torrent_length = buffer.count
                case .magnet: break
                }
                return priorities.withUnsafeBufferPointer { wanted in
                    if self.priorities != nil {
                        params.priorities = wanted.baseAddress
                        params.priority_count = Int32(wanted.count)
                    }
                    return Self.withOptionalCString(magnet) { link in
                        params.magnet = link
                        return Self.withOptionalCString(rootName) { root in
                            params.root_name = root
                            return withUnsafePointer(to: params) { body($0) }
                        }
                    }
                }
            }
        }
    }

    private static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}
