import CTorrent
import HaulCore

extension TorrentDetails {
    /// The torrent `number`'s details as the bridge reads them now.
    init(session: OpaquePointer, number: UInt64) {
        self.init()
        var files: UnsafeMutablePointer<haul_bt_file>?
        let fileCount = Int(haul_bt_files(session, number, &files))
        self.files = (0..<max(fileCount, 0)).map { i in
            let f = files![i]
            return File(
                path: f.path.map { String(cString: $0) } ?? "", size: f.size, done: f.done, selected: f.priority > 0)
        }
        if let files { haul_bt_files_free(files, Int32(max(fileCount, 0))) }
        var peers: UnsafeMutablePointer<haul_bt_peer>?
        let peerCount = Int(haul_bt_peers(session, number, &peers))
        self.peers = (0..<max(peerCount, 0)).map { i in
            var p = peers![i]
            let address = withUnsafeBytes(of: &p.address) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Peer(
                address: address, client: p.client.map { String(cString: $0) } ?? "", downloadRate: p.download_rate,
                uploadRate: p.upload_rate, progress: Double(p.progress_ppm) / 1_000_000, isSeed: p.seed != 0)
        }
        if let peers { haul_bt_peers_free(peers, Int32(max(peerCount, 0))) }
        var trackers: UnsafeMutablePointer<haul_bt_tracker>?
        let trackerCount = Int(haul_bt_trackers(session, number, &trackers))
        self.trackers = (0..<max(trackerCount, 0)).map { i in
            let t = trackers![i]
            return Tracker(
                url: t.url.map { String(cString: $0) } ?? "", lastAnswer: t.message.map { String(cString: $0) },
                working: t.working != 0)
        }
        if let trackers { haul_bt_trackers_free(trackers, Int32(max(trackerCount, 0))) }
        var bits: UnsafeMutablePointer<UInt8>?
        let pieceCount = Int(haul_bt_pieces(session, number, &bits))
        self.pieceCount = max(pieceCount, 0)
        self.pieces = bits.map { Array(UnsafeBufferPointer(start: $0, count: pieceCount / 8 + 1)) } ?? []
        haul_bt_free(bits)
    }
}

extension TorrentDetails {
    /// The files of a torrent not in the session, from what the state folder keeps of it: how
    /// much of each the last resume data had, and `selection`'s choice. Nil before the metadata.
    init?(stored store: TorrentStore, infoHash: String, selection: FileSelection?) {
        let torrent = store.metainfo(infoHash) ?? []
        let resume = store.resumeData(infoHash) ?? []
        guard !torrent.isEmpty || !resume.isEmpty else { return nil }
        var files: UnsafeMutablePointer<haul_bt_file>?
        let count = torrent.withUnsafeBufferPointer { t in
            resume.withUnsafeBufferPointer { r in
                Int(haul_bt_stored_files(t.baseAddress, t.count, r.baseAddress, r.count, &files))
            }
        }
        defer { if let files { haul_bt_files_free(files, Int32(max(count, 0))) } }
        guard count > 0, let files else { return nil }
        self.init()
        self.files = (0..<count).map { i in
            let f = files[i]
            return File(
                path: f.path.map { String(cString: $0) } ?? "", size: f.size, done: f.done,
                selected: selection?.contains(i + 1) ?? true)
        }
    }
}
