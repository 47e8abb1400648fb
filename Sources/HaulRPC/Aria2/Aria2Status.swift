import HaulAria2Wire
import HaulCore

/// A download as aria2 reports one (`tellStatus`, the lists, `getFiles`, `getUris`): every value
/// a string, as aria2 writes them.
public enum Aria2Status {
    /// What a running download is doing that the list does not say.
    public struct Live: Sendable, Equatable {
        public var bytesPerSecond: Int64
        public var connections: Int

        public init(bytesPerSecond: Int64, connections: Int) {
            self.bytesPerSecond = bytesPerSecond
            self.connections = connections
        }
    }

    /// aria2's word for the state: `active`, `waiting`, `paused`, `error`, `complete`
    /// (`removed` is for downloads taken off the list over RPC).
    public static func status(_ kind: DownloadState.Kind) -> String {
        switch kind {
        case .waiting: "waiting"
        case .downloading: "active"
        case .paused: "paused"
        case .finished: "complete"
        case .failed: "error"
        }
    }

    /// The struct `tellStatus` answers for `d`, only `keys` when given. `removed`: `d` was taken
    /// off the list over RPC and is kept as a result until purged.
    static func make(
        _ d: Download, live: Live?, keys: Set<String>?, removed: Bool = false, details: TorrentDetails? = nil,
        family: Aria2Family? = nil
    ) -> JSONValue {
        var o = JSONObjectWriter(keys: keys)
        let kind = d.state.kind
        let total = d.totalBytes ?? (kind == .finished ? d.receivedBytes : 0)
        let running = kind == .downloading && !removed
        o.string("gid", GID.of(d.id))
        o.string("status", removed ? "removed" : status(kind))
        o.number("totalLength", total)
        o.number("completedLength", d.receivedBytes)
        o.number("uploadLength", d.torrent?.uploaded ?? 0)
        if total > 0 {
            o.string("bitfield", Bitfield.hex(total: total, done: Bitfield.done(d)))
        }
        o.number("downloadSpeed", running ? live?.bytesPerSecond ?? 0 : 0)
        o.number("uploadSpeed", d.torrent?.uploadRate ?? 0)
        o.number("pieceLength", Bitfield.pieceLength)
        o.number("numPieces", total > 0 ? Bitfield.pieces(total: total) : 0)
        o.number("connections", Int64(running ? live?.connections ?? d.activeConnections ?? 1 : 0))
        if removed || kind == .finished || kind == .failed {
            let code =
                removed ? Aria2ErrorCode.removed : d.failureReason.map(Aria2ErrorCode.of) ?? Aria2ErrorCode.finished
            o.number("errorCode", Int64(code))
            o.string("errorMessage", removed ? "Removed" : d.failureReason.map(ReasonText.failure) ?? "")
        }
        o.string("dir", d.directory)
        if let family {
            if !family.followedBy.isEmpty {
                o.value("followedBy", .array(family.followedBy.map { .string(GID.of($0)) }))
            }
            if let leader = family.following { o.string("following", GID.of(leader)) }
        }
        o.value("files", files(d, details: details))
        if let torrent = d.torrent { bittorrent(d, torrent, running: running, into: &o) }
        return o.finish()
    }

    /// What aria2 adds for a torrent: its info hash, seeders, and the `bittorrent` struct.
    private static func bittorrent(
        _ d: Download, _ torrent: TorrentFacts, running: Bool, into o: inout JSONObjectWriter
    ) {
        o.string("infoHash", torrent.infoHash)
        o.number("numSeeders", Int64(running || torrent.seeding ? torrent.seeds ?? 0 : 0))
        o.string("seeder", d.state == .finished ? "true" : "false")
        let name = d.fileName ?? MagnetLink.displayName(d.url) ?? ""
        o.value(
            "bittorrent",
            .object([
                JSONValue.Member(
                    "announceList", .array(MagnetLink.trackers(d.url).map { .array([.string($0)]) })),
                JSONValue.Member("info", .object([JSONValue.Member("name", .string(name))])),
                JSONValue.Member("mode", .string(torrent.fileCount > 1 ? "multi" : "single")),
            ]))
    }

    /// `getPeers`: a torrent's connected peers as aria2 lists them.
    public static func peers(_ details: TorrentDetails?) -> JSONValue {
        .array(
            (details?.peers ?? []).map { peer in
                let colon = peer.address.lastIndex(of: ":") ?? peer.address.endIndex
                let ip = String(peer.address[..<colon])
                let port =
                    colon < peer.address.endIndex ? String(peer.address[peer.address.index(after: colon)...]) : ""

                return .object([
                    JSONValue.Member("amChoking", .string("false")),
                    JSONValue.Member("bitfield", .string("")),
                    JSONValue.Member("downloadSpeed", .string(String(peer.downloadRate))),
                    JSONValue.Member("ip", .string(ip)),
                    JSONValue.Member("peerChoking", .string("false")),
                    JSONValue.Member("peerId", .string(TerminalText.sanitize(peer.client))),
                    JSONValue.Member("port", .string(port)),
                    JSONValue.Member("seeder", .string(peer.isSeed ? "true" : "false")),
                    JSONValue.Member("uploadSpeed", .string(String(peer.uploadRate))),
                ])
            })
    }

    /// `getFiles`: a torrent's files while it runs or seeds (from 1, with `selected`); else the one
    /// file haul fetches.
    public static func files(_ d: Download, details: TorrentDetails? = nil) -> JSONValue {
        if let details, !details.files.isEmpty {
            return .array(
                details.files.enumerated().map { index, f in
                    var file = JSONObjectWriter()
                    file.number("index", Int64(index + 1))
                    file.string("path", Download.path(of: f.path, in: d.directory))
                    file.number("length", f.size)
                    file.number("completedLength", f.done)
                    file.string("selected", f.selected ? "true" : "false")
                    file.value("uris", .array([]))
                    return file.finish()
                })
        }
        let total = d.totalBytes ?? (d.state == .finished ? d.receivedBytes : 0)
        // Before its name is known, the name asked for (as aria2 shows `out`), else none.
        let path = d.path ?? d.requestedName.map { Download.path(of: $0, in: d.directory) } ?? ""
        var file = JSONObjectWriter()
        file.number("index", 1)
        file.string("path", path)
        file.number("length", total)
        file.number("completedLength", d.receivedBytes)
        file.string("selected", "true")
        file.value("uris", uris(d))
        return .array([file.finish()])
    }

    /// `getUris`: the download's address, then its usable mirrors (`used` once they served bytes).
    public static func uris(_ d: Download) -> JSONValue {
        var uri = JSONObjectWriter(capacity: 64 + d.url.utf8.count)
        uri.string("status", "used")
        uri.string("uri", d.url)
        var all = [uri.finish()]
        for mirror in d.request.sources where mirror.isUsable {
            var more = JSONObjectWriter(capacity: 64 + mirror.url.utf8.count)
            more.string("status", mirror.bytes > 0 ? "used" : "waiting")
            more.string("uri", mirror.url)
            all.append(more.finish())
        }
        return .array(all)
    }

    /// `getServers`: the server a running download is fetched from.
    public static func servers(_ d: Download, live: Live?) -> JSONValue {
        guard d.state == .downloading else { return .array([]) }
        return .array([
            .object([
                "index": .string("1"),
                "servers": .array([
                    .object([
                        "uri": .string(d.url), "currentUri": .string(d.finalURL ?? d.url),
                        "downloadSpeed": .string(String(live?.bytesPerSecond ?? 0)),
                    ])
                ]),
            ])
        ])
    }

    /// `getOption`: the download's own options by aria2's names; `connections` and `torrents`
    /// give what a download without its own follows.
    public static func options(_ d: Download, connections: Int, torrents: TorrentSettings) -> JSONValue {
        // A torrent's own connections are its peers (bt-max-peers).
        let own = d.isTorrent ? nil : d.connections
        var members: [JSONValue.Member] = [
            JSONValue.Member("dir", .string(d.directory)),
            JSONValue.Member("max-connection-per-server", .string(String(own ?? connections))),
            JSONValue.Member("split", .string(String(own ?? connections))),
            JSONValue.Member("max-download-limit", .string(String(d.speedLimit ?? 0))),
            JSONValue.Member("pause", .string(d.state.pauseCause == .user ? "true" : "false")),
        ]
        if d.isTorrent {
            members.append(JSONValue.Member("max-upload-limit", .string(String(d.request.uploadLimit ?? 0))))
            members.append(JSONValue.Member("bt-max-peers", .string(String(d.connections ?? 0))))
            let goal = d.request.seedGoal
            members.append(JSONValue.Member("seed-ratio", .string(String(goal?.ratio ?? torrents.seedRatio))))
            if let minutes = goal?.minutes ?? torrents.seedMinutes {
                members.append(JSONValue.Member("seed-time", .string(String(minutes))))
            }
            if let selection = d.request.selectedFiles {
                members.append(JSONValue.Member("select-file", .string(selection.description)))
            }
        }
        if let name = d.requestedName { members.append(JSONValue.Member("out", .string(name))) }
        if let tries = d.request.tries { members.append(JSONValue.Member("max-tries", .string(String(tries)))) }
        if let checksum = d.checksum { members.append(JSONValue.Member("checksum", .string(checksum.text))) }
        if !d.headers.isEmpty {
            members.append(JSONValue.Member("header", .array(d.headers.map { .string("\($0.name): \($0.value)") })))
        }
        return .object(members)
    }
}
