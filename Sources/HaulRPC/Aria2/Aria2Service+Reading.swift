import HaulAria2Wire
import HaulCore

/// The methods that read: a download by GID, the lists, options and totals.
extension Aria2Service {
    /// A download a GID names: one on the engine's list, or one removed over RPC.
    struct Found {
        var download: Download
        var removed: Bool
    }

    /// The engine's list for this request (taken once per request).
    func snapshot(_ scope: inout RequestScope) async throws(RPCError) -> EngineSnapshot {
        if let snapshot = scope.snapshot { return snapshot }
        do {
            let snapshot = try await session.snapshot()
            scope.snapshot = snapshot
            return snapshot
        } catch {
            throw Self.failure(error)
        }
    }

    /// Each download of the list, in order.
    func forEach(_ scope: inout RequestScope, _ body: (Download) -> Void) async throws(RPCError) {
        let list = try await snapshot(&scope).downloads
        do {
            try list.forEachDownload(body)
        } catch {
            throw .failed("haul could not read its list of downloads")
        }
    }

    /// The download the call's first parameter names (a GID or a unique prefix of one).
    func find(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> Found {
        try await find(try call.required(0) { $0.string }, &scope)
    }

    func find(_ text: String, _ scope: inout RequestScope) async throws(RPCError) -> Found {
        let gid = try GID.checked(text)
        if let id = GID.directID(gid), let d = try? await session.download(id) {
            return Found(download: d, removed: false)
        }
        var matches: [Found] = []
        try await forEach(&scope) { d in
            if GID.of(d.id).hasPrefix(gid) { matches.append(Found(download: d, removed: false)) }
        }
        for d in removedResults where GID.of(d.id).hasPrefix(gid) { matches.append(Found(download: d, removed: true)) }
        guard let first = matches.first else { throw .failed("GID \(text) is not found") }
        guard matches.count == 1 else { throw .failed("GID \(text) is not unique") }
        return first
    }

    /// The `keys` parameter at `index`: the keys to report, nil for all.
    func keys(_ call: RPCCall, at index: Int) throws(RPCError) -> Set<String>? {
        guard let keys = try call.optional(index, { $0.array }) else { return nil }
        var names = Set<String>()
        for key in keys {
            guard let name = key.string else { throw .wrongType(at: index) }
            names.insert(name)
        }
        return names.isEmpty ? nil : names
    }

    func tellStatus(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let found = try await find(call, &scope)
        let keys = try keys(call, at: 1)
        let details = keys?.contains("files") == false ? nil : await torrentDetails(found.download)
        let family =
            found.removed ? nil : try await families(of: [found.download], keys: keys, &scope)[found.download.id]
        return Aria2Status.make(
            found.download, live: live[found.download.id], keys: keys, removed: found.removed, details: details,
            family: family)
    }

    /// The families of `downloads` (see ``Aria2Family``), found in one pass over the list; none
    /// without a pass when none of them came from another URL or `keys` leave both keys out.
    func families(of downloads: [Download], keys: Set<String>?, _ scope: inout RequestScope) async throws(RPCError)
        -> [DownloadID: Aria2Family]
    {
        guard Aria2Family.isWanted(by: keys) else { return [:] }
        let wanted = Set(downloads.compactMap(Aria2Family.key))
        guard !wanted.isEmpty else { return [:] }
        var groups: [String: [Download]] = [:]
        try await forEach(&scope) { d in
            if let key = Aria2Family.key(of: d), wanted.contains(key) { groups[key, default: []].append(d) }
        }
        var found: [DownloadID: Aria2Family] = [:]
        for d in downloads {
            guard let key = Aria2Family.key(of: d), let family = Aria2Family.of(d, among: groups[key] ?? []) else {
                continue
            }
            found[d.id] = family
        }
        return found
    }

    func tellActive(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let keys = try keys(call, at: 0)
        let active = try await select([.downloading], keeping: 0..<Int.max, &scope).kept
        let families = try await families(of: active, keys: keys, &scope)
        return .array(active.map { Aria2Status.make($0, live: live[$0.id], keys: keys, family: families[$0.id]) })
    }

    /// The downloads of the list whose state is one of `kinds`: how many, and those at `wanted`.
    func select(_ kinds: Set<DownloadState.Kind>, keeping wanted: Range<Int>, _ scope: inout RequestScope)
        async throws(RPCError) -> (count: Int, kept: [Download])
    {
        let list = try await snapshot(&scope).downloads
        do {
            return try list.select(kinds, keeping: wanted)
        } catch {
            throw .failed("haul could not read its list of downloads")
        }
    }

    /// `tellWaiting` (waiting and paused, in queue order) and `tellStopped` (finished and
    /// failed in list order, then those removed over RPC): a page of `num` from `offset`.
    func tellPage(_ call: RPCCall, _ scope: inout RequestScope, stopped: Bool) async throws(RPCError) -> JSONValue {
        let offset = try call.required(0) { $0.int }
        let num = try call.required(1) { $0.int }
        let keys = try keys(call, at: 2)
        let kinds: Set<DownloadState.Kind> = stopped ? [.finished, .failed] : [.waiting, .paused]
        let extra = stopped ? removedResults.count : 0
        // A page from the front is read in one pass; one from the end needs the count first.
        let wanted: Range<Int>
        if offset < 0 {
            let count = try await select(kinds, keeping: 0..<0, &scope).count
            let page = QueuePage.indices(count: count + extra, offset: offset, num: num)
            guard let first = page.min(), let last = page.max() else { return .array([]) }
            wanted = first..<(last + 1)
        } else {
            guard num > 0, offset < Int64(Int.max / 2) else { return .array([]) }
            wanted = Int(offset)..<(Int(offset) + Int(min(num, Int64(Int.max / 4))))
        }
        let (count, kept) = try await select(kinds, keeping: wanted, &scope)
        let families = try await families(of: kept, keys: keys, &scope)
        // Removed results come after the list's own, as aria2 lists them after its stopped ones.
        let page = QueuePage.indices(count: count + extra, offset: offset, num: num)
        return .array(
            page.map { index in
                guard index < count else {
                    return Aria2Status.make(removedResults[index - count], live: nil, keys: keys, removed: true)
                }
                let d = kept[index - wanted.lowerBound]
                return Aria2Status.make(d, live: live[d.id], keys: keys, family: families[d.id])
            })
    }

    func getOption(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let d = try await find(call, &scope).download
        let snapshot = try await snapshot(&scope)
        return Aria2Status.options(
            d, connections: snapshot.connections ?? Download.defaultConnections,
            torrents: snapshot.torrents ?? TorrentSettings())
    }

    func globalOptions(_ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let snapshot = try await snapshot(&scope)
        let settings = configuration.settings
        let connections = String(snapshot.connections ?? Download.defaultConnections)
        var members: [JSONValue.Member] = [
            .init("dir", .string(settings.globalOptions["dir"] ?? configuration.downloadDirectory)),
            .init("max-concurrent-downloads", .string(String(snapshot.concurrency ?? 3))),
            .init("max-overall-download-limit", .string(String(snapshot.network.speedLimit?.rate ?? 0))),
            .init("max-download-limit", .string(settings.globalOptions["max-download-limit"] ?? "0")),
            .init("max-overall-upload-limit", .string(String(snapshot.torrents?.uploadLimit ?? 0))),
            .init("seed-ratio", .string(String(snapshot.torrents?.seedRatio ?? TorrentSettings().seedRatio))),
            .init("split", .string(settings.globalOptions["split"] ?? connections)),
            .init(
                "max-connection-per-server", .string(settings.globalOptions["max-connection-per-server"] ?? connections)
            ),
            .init("rpc-listen-port", .string(String(settings.port))),
        ]
        members.append(.init("rpc-listen-all", .string(settings.isLoopbackOnly ? "false" : "true")))
        if let minutes = snapshot.torrents?.seedMinutes { members.append(.init("seed-time", .string(String(minutes)))) }
        return .object(members)
    }

    func globalStat(_ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let active = try await select([.downloading], keeping: 0..<Int.max, &scope).kept
        let waiting = try await select([.waiting, .paused], keeping: 0..<0, &scope).count
        let stopped = try await select([.finished, .failed], keeping: 0..<0, &scope).count + removedResults.count
        let speed = active.reduce(Int64(0)) { $0 + (live[$1.id]?.bytesPerSecond ?? 0) }
        return .object([
            "downloadSpeed": .string(String(speed)), "uploadSpeed": .string("0"),
            "numActive": .string(String(active.count)), "numWaiting": .string(String(waiting)),
            "numStopped": .string(String(stopped)), "numStoppedTotal": .string(String(stopped)),
        ])
    }
}
