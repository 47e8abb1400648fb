import CLinux
import CTorrent
import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's one libtorrent session: every torrent that runs or seeds is in it. The actor owns
/// the session; libtorrent signals an eventfd when it has alerts, a thread of this session waits
/// on it and asks the actor to pop them, and each becomes a ``TorrentEvent`` for the torrent's
/// owner (its transfer while it downloads, the seeding watch after).
actor TorrentSession {
    /// libtorrent's session, behind the bridge. Used only on this actor (and freed by `close`).
    private var session: OpaquePointer?
    private let wakeup: Int32
    private var numbers: [DownloadID: UInt64] = [:]
    private var next: UInt64 = 1
    private var owners: [UInt64: @Sendable (TorrentEvent) -> Void] = [:]
    /// Resume data asked for and not answered yet, per torrent. libtorrent answers each request
    /// once, in the order asked, without saying which request an answer is for.
    private var resumeAnswersOwed: [UInt64: Int] = [:]
    private(set) var settings: TorrentSettings
    private var globalLimits: (download: Int64, upload: Int64) = (0, 0)
    private var ticking = false

    /// A wakeup value above any count of alerts: the waiting thread's sign to end.
    private static let stopSignal: UInt64 = 1 << 40

    init(settings: TorrentSettings) {
        self.settings = settings
        let fd = haul_eventfd()
        wakeup = fd
        var bridge = Self.bridgeSettings(settings, limits: (0, 0))
        session = settings.listenInterfaces.withCString { listen in
            bridge.listen_interfaces = listen
            return haul_bt_session_new(&bridge, fd)
        }
    }

    /// Starts the thread that waits for libtorrent's signal. Called once, after `init`.
    nonisolated func startWaiting() {
        let fd = wakeup
        DetachedThread.start { [weak self] in
            while true {
                var value: UInt64 = 0
                let n = read(fd, &value, 8)
                if n < 0 && errno == EINTR { continue }
                if n != 8 || value >= Self.stopSignal { break }
                guard let self else { break }
                Task { await self.drain() }
            }
        }
    }

    /// Stops every torrent and the session (connections closed, trackers told); waits for it.
    func close() {
        guard let session else { return }
        self.session = nil
        haul_bt_session_free(session)
        var stop = Self.stopSignal
        _ = write(wakeup, &stop, 8)
        owners.removeAll()
    }

    /// The session's settings and the global limits (bytes per second, nil for none).
    func apply(_ settings: TorrentSettings, downloadLimit: Int64?, uploadLimit: Int64?) {
        self.settings = settings
        globalLimits = (downloadLimit ?? 0, uploadLimit ?? settings.uploadLimit ?? 0)
        guard let session else { return }
        var bridge = Self.bridgeSettings(settings, limits: globalLimits)
        settings.listenInterfaces.withCString { listen in
            bridge.listen_interfaces = listen
            haul_bt_session_apply(session, &bridge)
        }
    }

    private static func bridgeSettings(_ settings: TorrentSettings, limits: (Int64, Int64)) -> haul_bt_settings {
        var bridge = haul_bt_settings()
        bridge.dht = settings.dht ? 1 : 0
        bridge.lsd = settings.lsd ? 1 : 0
        bridge.port_mapping = settings.portMapping ? 1 : 0
        bridge.download_limit = limits.0
        bridge.upload_limit = limits.1
        return bridge
    }

    /// The bridge's number for a download (stable while the session lives).
    private func number(_ id: DownloadID) -> UInt64 {
        if let known = numbers[id] { return known }
        let n = next
        next += 1
        numbers[id] = n
        return n
    }

    /// Adds a torrent and routes its events to `owner`; the sentence libtorrent gave when it cannot.
    /// A refused add leaves a torrent already in the session (the same one added twice) with the
    /// owner it had.
    func add(_ id: DownloadID, _ addition: TorrentAddition, owner: @escaping @Sendable (TorrentEvent) -> Void)
        -> String?
    {
        guard let session else { return "the BitTorrent session has stopped" }
        let n = number(id)
        let previous = owners[n]
        owners[n] = owner
        var error = [CChar](repeating: 0, count: 512)
        let status = addition.withBridgeParams(number: n) { params in
            haul_bt_add(session, params, &error, error.count)
        }
        guard status == 0 else {
            owners[n] = previous
            return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        startTicking()
        return nil
    }

    /// Hands the torrent's events to a new owner (the seeding watch after its transfer ends).
    func reassign(_ id: DownloadID, to owner: @escaping @Sendable (TorrentEvent) -> Void) {
        guard let n = numbers[id], owners[n] != nil else { return }
        owners[n] = owner
    }

    /// Takes the torrent out of the session; its files stay.
    func remove(_ id: DownloadID) {
        guard let n = numbers[id] else { return }
        owners[n] = nil
        resumeAnswersOwed[n] = nil
        if let session { haul_bt_remove(session, n) }
    }

    /// Asks for resume data: a ``TorrentEvent/resumeData(_:)`` or
    /// ``TorrentEvent/resumeDataFailed(_:)`` answers it, after the answers to the requests still
    /// owed, whose count this returns; nil when the torrent is not in the session. With `owner`,
    /// the torrent's events go to it from now on, in the same step: an answer delivered between a
    /// separate reassignment and the request would be counted as owed and also reach `owner`,
    /// which would then take an earlier request's answer for its own.
    func saveResumeData(
        _ id: DownloadID, onlyIfModified: Bool, answeringTo owner: (@Sendable (TorrentEvent) -> Void)? = nil
    ) -> Int? {
        guard let session, let n = numbers[id], owners[n] != nil,
            haul_bt_save_resume(session, n, onlyIfModified ? 1 : 0) != 0
        else { return nil }
        if let owner { owners[n] = owner }
        let earlier = resumeAnswersOwed[n, default: 0]
        resumeAnswersOwed[n] = earlier + 1
        return earlier
    }

    func setLimits(_ id: DownloadID, download: Int64?, upload: Int64?, peers: Int?) {
        guard let session, let n = numbers[id] else { return }
        haul_bt_set_limits(session, n, download ?? 0, upload ?? 0, Int32(clamping: peers ?? 0))
    }

    func setPriorities(_ id: DownloadID, _ priorities: [UInt8]) {
        guard let session, let n = numbers[id] else { return }
        priorities.withUnsafeBufferPointer {
            haul_bt_set_priorities(session, n, $0.baseAddress, Int32($0.count))
        }
    }

    func moveStorage(_ id: DownloadID, to folder: String) {
        guard let session, let n = numbers[id] else { return }
        haul_bt_move_storage(session, n, folder)
    }

    func renameRoot(_ id: DownloadID, to name: String) {
        guard let session, let n = numbers[id] else { return }
        haul_bt_rename_root(session, n, name)
    }

    /// Hands libtorrent a piece fetched from a web seed; it checks its hash before writing it.
    func addPiece(_ id: DownloadID, piece: Int, _ bytes: [UInt8]) {
        guard let session, let n = numbers[id] else { return }
        bytes.withUnsafeBufferPointer { haul_bt_add_piece(session, n, Int32(piece), $0.baseAddress, $0.count) }
    }

    /// Which pieces it has (one bit each, most significant first) and how many there are; nil
    /// when it is not in the session.
    func pieces(_ id: DownloadID) -> (bits: [UInt8], count: Int)? {
        guard let session, let n = numbers[id], owners[n] != nil else { return nil }
        var bits: UnsafeMutablePointer<UInt8>?
        let count = Int(haul_bt_pieces(session, n, &bits))
        defer { haul_bt_free(bits) }
        guard count >= 0, let bits else { return nil }
        return (Array(UnsafeBufferPointer(start: bits, count: count / 8 + 1)), count)
    }

    /// Which files are fetched now, by index; nil when it is not in the session.
    func fetchedFiles(_ id: DownloadID) -> [Bool]? {
        guard let session, let n = numbers[id], owners[n] != nil else { return nil }
        var files: UnsafeMutablePointer<haul_bt_file>?
        let count = Int(haul_bt_files(session, n, &files))
        defer { if let files { haul_bt_files_free(files, Int32(max(count, 0))) } }
        guard count >= 0, let files else { return nil }
        return (0..<count).map { files[$0].priority > 0 }
    }

    /// Where its pieces are on a web seed; nil before its metadata.
    func webSeedLayout(_ id: DownloadID) -> WebSeedLayout? {
        guard let session, let n = numbers[id], owners[n] != nil else { return nil }
        var files: UnsafeMutablePointer<haul_bt_layout_file>?
        var pieceLength: Int64 = 0
        var single: Int32 = 0
        let count = Int(haul_bt_layout(session, n, &files, &pieceLength, &single))
        defer { if let files { haul_bt_layout_free(files, Int32(max(count, 0))) } }
        guard count > 0, let files else { return nil }
        let layout = (0..<count).map { i in
            WebSeedLayout.File(
                path: files[i].path.map { String(cString: $0) } ?? "", size: files[i].size, isPad: files[i].pad != 0)
        }
        return WebSeedLayout(files: layout, pieceLength: pieceLength, isSingleFile: single != 0)
    }

    /// The torrent's files, peers, trackers and pieces, for the details and the RPC; nil when it is
    /// not in the session.
    func details(_ id: DownloadID) -> TorrentDetails? {
        guard let session, let n = numbers[id], owners[n] != nil
        else { return nil }
        return TorrentDetails(session: session, number: n)
    }

    /// Asks libtorrent for the numbers of every torrent that changed, once a second while any runs.
    private func startTicking() {
        guard !ticking else { return }
        ticking = true
        Task {
            while self.tick() {
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func tick() -> Bool {
        guard let session, !owners.isEmpty else {
            ticking = false
            return false
        }
        haul_bt_post_updates(session)
        return true
    }

    /// Pops what libtorrent has to say and hands each event to its torrent's owner.
    private func drain() {
        guard let session else { return }
        var events = [haul_bt_event](repeating: haul_bt_event(), count: 64)
        while true {
            let count = Int(haul_bt_poll(session, &events, Int32(events.count)))
            for i in 0..<count {
                let kind = Int(events[i].kind)
                if kind == Int(HAUL_BT_RESUME_DATA) || kind == Int(HAUL_BT_RESUME_FAILED),
                    let owed = resumeAnswersOwed[events[i].id]
                {
                    resumeAnswersOwed[events[i].id] = owed > 1 ? owed - 1 : nil
                }
                if let event = TorrentEvent(events[i]), let owner = owners[events[i].id] { owner(event) }
                haul_bt_event_free(&events[i])
            }
            if count < events.count { break }
        }
    }
}
