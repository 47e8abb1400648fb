import FoundationEssentials
import HaulAria2Wire
import HaulCore
import HaulStore

/// The methods that change something: adding, removing, pausing, moving, options. Each lets the
/// request's snapshot go, so a later call of the same batch reads the change.
extension Aria2Service {
    /// Carries out `command` and answers `answer` (aria2's "OK", or a GID).
    func perform(_ command: EngineCommand, _ scope: inout RequestScope, answer: String) async throws(RPCError)
        -> JSONValue
    {
        scope.snapshot = nil
        do {
            try await session.perform(command)
        } catch {
            throw Self.failure(error)
        }
        return .string(answer)
    }

    /// The directories a call may put files in.
    var allowedRoots: [String] { [configuration.downloadDirectory] + configuration.settings.allowedDirectories }

    /// `addUri([uri, …], {options}?, position?)`: answers the new download's GID. The URIs are
    /// sources of one file (the first names it); a call that cannot be carried out adds nothing.
    func addUri(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let (request, position) = try uriRequest(call)
        let ids = try await add([request], &scope)
        if let position, let id = ids.first { _ = try await move(id, to: Int(clamping: position), &scope) }
        return .string(GID.of(ids[0]))
    }

    /// Several `addUri` calls in a row (of one `system.multicall` or batch), added as one command:
    /// one write to the journal for all of them. Each call still answers for itself: a call
    /// that cannot be read fails alone, and should the engine refuse the lot, each is added
    /// on its own so the one it refuses is named.
    func addUris(_ calls: [RPCCall], _ scope: inout RequestScope) async -> [Result<JSONValue, RPCError>] {
        var outcomes = [Result<JSONValue, RPCError>](repeating: .failure(.failed("not added")), count: calls.count)
        var read: [(index: Int, request: DownloadRequest, position: Int64?)] = []
        for (index, call) in calls.enumerated() {
            do {
                let (request, position) = try uriRequest(call)
                read.append((index, request, position))
            } catch {
                outcomes[index] = .failure(error)
            }
        }
        guard !read.isEmpty else { return outcomes }
        if let ids = try? await add(read.map(\.request), &scope), ids.count == read.count {
            for (entry, id) in zip(read, ids) {
                outcomes[entry.index] = .success(.string(GID.of(id)))
                if let position = entry.position { _ = try? await move(id, to: Int(clamping: position), &scope) }
            }
            return outcomes
        }
        for entry in read {
            do {
                let ids = try await add([entry.request], &scope)
                if let position = entry.position, let id = ids.first {
                    _ = try await move(id, to: Int(clamping: position), &scope)
                }
                outcomes[entry.index] = .success(.string(GID.of(ids[0])))
            } catch {
                outcomes[entry.index] = .failure(error)
            }
        }
        return outcomes
    }

    /// What an `addUri` call asks for, its options applied, and where in the queue.
    private func uriRequest(_ call: RPCCall) throws(RPCError) -> (DownloadRequest, Int64?) {
        let uris = try call.required(0) { $0.array }
        guard let first = uris.first else { throw .failed("No URI to download.") }
        guard let url = first.string, uris.allSatisfy({ $0.string != nil }) else { throw .wrongType(at: 0) }
        let options = try optionList(call, at: 1)
        let position = try call.optional(2) { $0.int }
        if let position, position < 0 { throw .failed("Position must be greater than or equal to 0.") }
        var request = DownloadRequest(url: url, directory: "")
        // The client named this URL, as a user names one to `haul add`: netrc's login for its host
        // goes with it (never to the mirrors).
        request.login = .usualNetrc
        let mirrors = uris.dropFirst().compactMap(\.string).map { DownloadSource(url: $0, origin: .user) }
        if !mirrors.isEmpty { request.sources = mirrors }
        return (try prepared(request, options: options), position)
    }

    /// `addTorrent(base64, [uris]?, {options}?, position?)`: one download of the torrent, its file
    /// kept by the engine before the answer; its GID. Web seeds given as `uris` are not used
    /// (the torrent's own are).
    func addTorrent(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let encoded = try call.required(0) { $0.string }
        let options = try optionList(call, at: 2)
        let position = try call.optional(3) { $0.int }
        if let position, position < 0 { throw .failed("Position must be greater than or equal to 0.") }
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters), !data.isEmpty else {
            throw .failed("The torrent is not base64-encoded.")
        }
        var request = DownloadRequest(url: "", directory: "")
        request.metainfo = [UInt8](data)
        let ids = try await add([try prepared(request, options: options)], &scope)
        if let position, let id = ids.first { _ = try await move(id, to: Int(clamping: position), &scope) }
        return .string(GID.of(ids[0]))
    }

    /// `addMetalink(base64, {options}?, position?)`: one download per file of the document, with
    /// its URLs as sources and its hashes; answers their GIDs. Headers never reach its URLs.
    func addMetalink(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let encoded = try call.required(0) { $0.string }
        let options = try optionList(call, at: 1).filter { $0.name != "header" }
        let position = try call.optional(2) { $0.int }
        if let position, position < 0 { throw .failed("Position must be greater than or equal to 0.") }
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
            throw .failed("The Metalink is not base64-encoded.")
        }
        let metalink: Metalink
        do {
            metalink = try Metalink(parsing: data)
        } catch {
            throw .failed(error.message)
        }
        let requests = try metalink.files.compactMap { $0.request(into: "") }.map { request throws(RPCError) in
            try prepared(request, options: options)
        }
        guard !requests.isEmpty else { throw .failed("The Metalink gives no http or https URL.") }
        let ids = try await add(requests, &scope)
        if let position {
            for (offset, id) in ids.enumerated() {
                _ = try await move(id, to: Int(clamping: position) + offset, &scope)
            }
        }
        return .array(ids.map { .string(GID.of($0)) })
    }

    /// Adds `requests` (all or none) as one command.
    private func add(_ requests: [DownloadRequest], _ scope: inout RequestScope) async throws(RPCError) -> [DownloadID]
    {
        scope.snapshot = nil
        do {
            let ids = try await session.perform(.add(requests))
            guard ids.count == requests.count else { throw RPCError.failed("The download was not added.") }
            return ids
        } catch let error as RPCError {
            throw error
        } catch {
            throw Self.failure(error)
        }
    }

    /// `request` with the global options, then the call's `options`, applied. A folder the call
    /// names must be one a client may write to; with none, the engine's add path picks it (the
    /// folder rules, else the download directory), as for `haul add`.
    private func prepared(_ request: DownloadRequest, options: [(name: String, value: String)]) throws(RPCError)
        -> DownloadRequest
    {
        var request = request
        request.directory = configuration.settings.globalOptions["dir"] ?? ""
        let globals = configuration.settings.globalOptions.filter { $0.key != "dir" }
            .sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        let base = configuration.downloadDirectory
        do {
            try Aria2Options.apply(globals + options, to: &request) { Self.absolute($0, in: base) }
        } catch {
            throw .failed("\(error.option): \(error.message)")
        }
        if !request.directory.isEmpty { try checkDirectory(request.directory) }
        // An `out` with folders: where they lead, links followed, is checked as a `dir` is.
        if let name = request.requestedName, let path = try? RequestedPath(name), !path.folders.isEmpty {
            try checkDirectory(path.directory(in: request.directory.isEmpty ? base : request.directory))
        }
        return request
    }

    /// An options struct as (name, value) pairs in order; `header` may be a list of values.
    /// Options that would need what haul does not have are refused rather than dropped.
    func optionList(_ call: RPCCall, at index: Int) throws(RPCError) -> [(name: String, value: String)] {
        guard let members = try call.optional(index, { $0.members }) else { return [] }
        var options: [(name: String, value: String)] = []
        for member in members {
            switch member.value {
            case .string(let value): options.append((member.key, value))
            case .array(let values):
                for value in values {
                    guard let text = value.string else { throw .wrongType(at: index) }
                    options.append((member.key, text))
                }
            case .int(let number): options.append((member.key, String(number)))
            case .bool(let flag): options.append((member.key, String(flag)))
            default: throw .wrongType(at: index)
            }
        }
        for (name, value) in options where name == "all-proxy" && !value.isEmpty {
            throw .failed("all-proxy: haul does not download through a proxy yet")
        }
        return options
    }

    /// A `dir` value as an absolute path: a relative one lies in the download directory.
    func absolute(_ path: String) -> String { Self.absolute(path, in: configuration.downloadDirectory) }

    static func absolute(_ path: String, in directory: String) -> String {
        let expanded = PathText.expandingTilde(path, home: StatePaths.home(ProcessInfo.processInfo.environment))
        guard !expanded.hasPrefix("/") else { return expanded }
        return PathText.joined(directory, expanded)
    }

    /// Refuses a directory outside the download directory and the ones the user allowed.
    func checkDirectory(_ path: String) throws(RPCError) {
        guard DirectoryRule.allows(path, roots: allowedRoots) else {
            throw .failed(
                "\(path) is outside the directories haul may write to over RPC; allow it with haul rpc on --allow-dir")
        }
    }

    func remove(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let found = try await find(call, &scope)
        let d = found.download
        guard !found.removed, d.state != .finished, d.state.kind != .failed else {
            throw .failed("Active Download not found for GID#\(GID.of(d.id))")
        }
        _ = try await perform(.remove(.ids([d.id]), deleteFiles: false), &scope, answer: "OK")
        // As aria2: a download stopped while running stays as a "removed" result; one taken
        // off the waiting queue is gone.
        if d.state == .downloading {
            removedResults.append(d)
            if removedResults.count > Self.removedResultsKept { removedResults.removeFirst() }
        }
        return .string(GID.of(d.id))
    }

    func pause(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let found = try await find(call, &scope)
        let d = found.download
        guard !found.removed, d.state.kind == .waiting || d.state.kind == .downloading else {
            throw .failed("GID#\(GID.of(d.id)) cannot be paused now")
        }
        return try await perform(.pause(.ids([d.id])), &scope, answer: GID.of(d.id))
    }

    func unpause(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let found = try await find(call, &scope)
        let d = found.download
        guard !found.removed, d.state.kind == .paused else {
            throw .failed("GID#\(GID.of(d.id)) cannot be unpaused now")
        }
        return try await perform(.resume(.ids([d.id])), &scope, answer: GID.of(d.id))
    }

    /// `changePosition(gid, pos, how)` in the waiting queue (waiting and paused downloads, in
    /// the order they start): answers the new position.
    func changePosition(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let d = try await find(call, &scope).download
        let offset = try call.required(1) { $0.int }
        let how = try call.required(2) { $0.string }
        var queue: [DownloadID] = []
        try await forEach(&scope) { item in
            if item.state.kind == .waiting || item.state.kind == .paused { queue.append(item.id) }
        }
        guard let current = queue.firstIndex(of: d.id) else {
            throw .failed("GID#\(GID.of(d.id)) not found in the waiting queue.")
        }
        let target: Int64
        switch how {
        case "POS_SET": target = offset
        case "POS_CUR": target = Int64(current) + offset
        case "POS_END": target = Int64(queue.count - 1) + offset
        default: throw .failed("Illegal argument.")
        }
        return .int(Int64(try await move(d.id, to: Int(clamping: target), &scope)))
    }

    /// Puts `id` at `position` of the waiting queue (clamped to it); answers where it went.
    private func move(_ id: DownloadID, to position: Int, _ scope: inout RequestScope) async throws(RPCError) -> Int {
        var others: [DownloadID] = []
        try await forEach(&scope) { item in
            if item.id != id, item.state.kind == .waiting || item.state.kind == .paused { others.append(item.id) }
        }
        let index = min(max(position, 0), others.count)
        let successor = index < others.count ? others[index] : nil
        _ = try await perform(.moveBefore(id, successor), &scope, answer: "OK")
        return index
    }

    /// `changeUri(gid, fileIndex, delUris, addUris, position?)`: haul fetches a download from one
    /// address, so the first added URI becomes it (its bytes kept while it serves the same
    /// file). Answers `[deleted, added]`.
    func changeUri(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let d = try await find(call, &scope).download
        let fileIndex = try call.required(1) { $0.int }
        guard fileIndex == 1 else { throw .failed("fileIndex is out of range") }
        let deleting = try call.required(2) { $0.array }.compactMap(\.string)
        let adding = try call.required(3) { $0.array }.compactMap(\.string)
        let deleted = deleting.contains(d.url) ? 1 : 0
        guard let url = adding.first else {
            if deleted > 0 { throw .failed("haul keeps one address per download: give the new one in the same call") }
            return .array([.int(0), .int(0)])
        }
        _ = try await perform(.refresh(d.id, url: url), &scope, answer: "OK")
        return .array([.int(Int64(max(deleted, 1))), .int(1)])
    }

    /// `changeOption(gid, {options})`: a download's speed limits, connections, and a torrent's peers,
    /// seeding and files.
    func changeOption(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let d = try await find(call, &scope).download
        for (name, value) in try optionList(call, at: 1) {
            switch name {
            case "max-download-limit":
                let rate = try Self.rate(value, option: name)
                _ = try await perform(
                    .setDownloadSpeedLimit(.ids([d.id]), rate == 0 ? nil : rate), &scope, answer: "OK")
            case "max-upload-limit":
                let rate = try Self.rate(value, option: name)
                _ = try await perform(.setUploadLimit(.ids([d.id]), rate == 0 ? nil : rate), &scope, answer: "OK")
            case "split", "max-connection-per-server":
                // A torrent's connections are its peers: aria2 counts them with bt-max-peers only.
                guard !d.isTorrent else { continue }
                let count = try Self.connections(value, option: name)
                _ = try await perform(.setConnections(.ids([d.id]), count), &scope, answer: "OK")
            case "seed-ratio", "seed-time":
                guard d.isTorrent else { continue }
                let goal = try Self.seedGoal(name, value)
                _ = try await perform(.setSeedGoal(.ids([d.id]), goal), &scope, answer: "OK")
            case "bt-max-peers":
                guard d.isTorrent else { continue }
                guard let count = Int(value), count >= 0 else {
                    throw .failed("bt-max-peers: '\(TerminalText.sanitize(value))' is not a number of peers")
                }
                _ = try await perform(.setConnections(.ids([d.id]), count), &scope, answer: "OK")
            case "select-file":
                let selection: FileSelection?
                do {
                    selection = value.isEmpty ? nil : try FileSelection(value)
                } catch {
                    throw .failed(error.message)
                }
                _ = try await perform(.selectFiles(d.id, selection), &scope, answer: "OK")
            default:
                continue
            }
        }
        return .string("OK")
    }

    /// `changeGlobalOption({options})`: the overall speed limits, the seeding and the number of
    /// downloads at once for the engine; `dir`, `split`, `max-connection-per-server` and `max-download-limit`
    /// for downloads added over RPC from now on (kept with the endpoint's settings).
    func changeGlobalOption(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let options = try optionList(call, at: 0)
        var settings = configuration.settings
        // Every value is checked before anything changes.
        for (name, value) in options {
            switch name {
            case "max-overall-download-limit", "max-download-limit", "max-overall-upload-limit":
                _ = try Self.rate(value, option: name)
            case "split", "max-connection-per-server": _ = try Self.connections(value, option: name)
            case "max-concurrent-downloads":
                guard let count = Int(value), (1...64).contains(count) else {
                    throw .failed("max-concurrent-downloads: haul runs 1 to 64 downloads at once")
                }
            case "dir": try checkDirectory(absolute(value))
            case "seed-ratio", "seed-time": _ = try Self.seedGoal(name, value)
            case "all-proxy":
                do { _ = value.isEmpty ? nil : try ProxyChoice(parsing: value) } catch { throw .failed(error.message) }
            case let hook where hook.hasPrefix("on-download-") || hook.hasPrefix("on-bt-download-"):
                // A page that reached the port must never make haul run a program.
                throw .failed("\(hook): hooks are set with haul hooks on the machine haul runs on, not over RPC")
            default: continue
            }
        }
        for (name, value) in options {
            switch name {
            case "max-overall-download-limit":
                let rate = try Self.rate(value, option: name)
                _ = try await perform(.setSpeedLimit(rate == 0 ? nil : SpeedLimit(rate: rate)), &scope, answer: "OK")
            case "max-overall-upload-limit":
                let rate = try Self.rate(value, option: name)
                var torrents = (try? await session.snapshot().torrents ?? TorrentSettings()) ?? TorrentSettings()
                torrents.uploadLimit = rate == 0 ? nil : rate
                _ = try await perform(.setTorrentSettings(torrents), &scope, answer: "OK")
            case "seed-ratio", "seed-time":
                // The saved seeding every torrent without its own follows, as `haul torrents` sets it.
                let goal = try Self.seedGoal(name, value)
                var torrents = (try? await session.snapshot().torrents ?? TorrentSettings()) ?? TorrentSettings()
                if let ratio = goal.ratio { torrents.seedRatio = ratio }
                if let minutes = goal.minutes { torrents.seedMinutes = minutes }
                _ = try await perform(.setTorrentSettings(torrents), &scope, answer: "OK")
            case "max-concurrent-downloads":
                _ = try await perform(.setConcurrency(Int(value) ?? 1), &scope, answer: "OK")
            case "dir": settings.globalOptions[name] = absolute(value)
            case "all-proxy":
                // The global proxy (an empty value removes it), as `haul proxy` sets it.
                var proxies = (try? await session.snapshot().proxies ?? ProxySettings()) ?? ProxySettings()
                proxies.global = value.isEmpty ? nil : try? ProxyChoice(parsing: value)
                _ = try await perform(.setProxies(proxies), &scope, answer: "OK")
            case "split", "max-connection-per-server", "max-download-limit": settings.globalOptions[name] = value
            default: continue
            }
        }
        if settings != configuration.settings {
            configuration.settings = settings
            _ = try await perform(.setRPC(settings), &scope, answer: "OK")
        }
        return .string("OK")
    }

    /// `purgeDownloadResult`: forgets every finished, failed and removed download (the files stay).
    func purge(_ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        var stopped: [DownloadID] = []
        try await forEach(&scope) { d in
            if d.state == .finished || d.state.kind == .failed { stopped.append(d.id) }
        }
        removedResults = []
        guard !stopped.isEmpty else { return .string("OK") }
        return try await perform(.remove(.ids(stopped), deleteFiles: false), &scope, answer: "OK")
    }

    /// `removeDownloadResult(gid)`: forgets one finished, failed or removed download.
    func removeResult(_ call: RPCCall, _ scope: inout RequestScope) async throws(RPCError) -> JSONValue {
        let found = try await find(call, &scope)
        let d = found.download
        if found.removed {
            removedResults.removeAll { $0.id == d.id }
            return .string("OK")
        }
        guard d.state == .finished || d.state.kind == .failed else {
            throw .failed("Could not remove download result of GID#\(GID.of(d.id))")
        }
        return try await perform(.remove(.ids([d.id]), deleteFiles: false), &scope, answer: "OK")
    }

    /// A rate option in bytes per second (aria2's `500K`, `2M`, or bytes); 0 means none.
    static func rate(_ value: String, option: String) throws(RPCError) -> Int64 {
        guard let rate = Formatting.parseRate(value) else {
            throw .failed("\(option): '\(value)' is not a rate (e.g. 500K or 2M)")
        }
        return rate == 0 ? 0 : max(rate, SpeedLimit.minimumRate)
    }

    /// aria2's `seed-ratio` or `seed-time` (`name`) as the part of a seed goal it sets.
    static func seedGoal(_ name: String, _ value: String) throws(RPCError) -> SeedGoal {
        do {
            return name == "seed-ratio"
                ? SeedGoal(ratio: try SeedGoal.ratio(parsing: value))
                : SeedGoal(minutes: try SeedGoal.minutes(parsing: value))
        } catch {
            throw .failed("\(name): \(error.message)")
        }
    }

    static func connections(_ value: String, option: String) throws(RPCError) -> Int {
        guard let count = Int(value), Download.connectionRange.contains(count) else {
            throw .failed("\(option): haul uses 1 to 32 connections per file")
        }
        return count
    }
}
