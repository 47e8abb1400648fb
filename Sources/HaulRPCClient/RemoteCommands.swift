import FoundationEssentials
import HaulAria2Wire
import HaulCore

/// What each ``EngineCommand`` is as aria2 calls. A command aria2 has no call for says so in a
/// sentence; haul's own (metered mode and its allowance) go to a haul as `haul.command`.
struct RemoteCommands: Sendable {
    let transport: RPCTransport
    let list: RemoteList
    let engine: RemoteLink.Engine
    /// What its waits for the engine to settle are timed by.
    let clock: any MonotonicClock

    func perform(_ command: EngineCommand) async throws(RemoteFailure) -> [DownloadID] {
        switch command {
        case .add(let requests):
            var ids: [DownloadID] = []
            for request in requests {
                let call =
                    request.metainfo.map { bytes in
                        // A torrent file goes as aria2.addTorrent(base64, uris, options).
                        let parameters = Self.addParameters(request)
                        return RemoteCall(
                            "aria2.addTorrent",
                            [.string(Data(bytes).base64EncodedString()), .array([]), parameters[1]])
                    } ?? RemoteCall("aria2.addUri", Self.addParameters(request))
                let gid = try await transport.call(call)
                guard let text = gid.string else { throw .malformed("the engine answered an add without a GID") }
                ids.append(RemoteID.id(forGID: text))
            }
            return ids
        case .pause(let selection):
            try await each(selection, all: "aria2.pauseAll", method: "aria2.pause") {
                $0 == .waiting || $0 == .downloading
            }
            await settle(selection)
        case .resume(let selection):
            try await each(selection, all: "aria2.unpauseAll", method: "aria2.unpause") { $0.isPaused }
        case .cancel(let selection):
            try await each(selection, all: nil, method: "aria2.forceRemove") { $0.kind != .finished && !$0.isFailed }
        case .remove(let selection, let deleteFiles):
            if deleteFiles {
                throw .unsupported(
                    "files on the engine's machine cannot be deleted over RPC; remove it without its file")
            }
            try await remove(selection)
        case .retry(let selection):
            try await retry(selection)
        case .setConcurrency(let count):
            try await global([("max-concurrent-downloads", String(count))])
        case .setConnections(let selection, let count):
            // aria2 takes at most 16 connections per server; a torrent counts its peers instead.
            let options: [(String, String)] = [
                ("split", String(count)), ("max-connection-per-server", String(min(count, 16))),
            ]
            if let selection {
                try await change(selection, options + [("bt-max-peers", String(count))])
            } else {
                try await global(options)
            }
        case .setSpeedLimit(let limit):
            if limit?.window != nil, !engine.isHaul {
                throw .unsupported("a speed limit for part of the day is not supported by aria2")
            }
            if engine.isHaul, limit?.window != nil { return try await haulCommand(command) }
            try await global([("max-overall-download-limit", String(limit?.rate ?? 0))])
        case .setDownloadSpeedLimit(let selection, let rate):
            try await change(selection, [("max-download-limit", String(rate ?? 0))])
        case .setUploadLimit(let selection, let rate):
            try await change(selection, [("max-upload-limit", String(rate ?? 0))])
        case .move(let selection, let place):
            for gid in gids(selection) {
                let (position, how): (Int64, String) =
                    switch place {
                    case .top: (0, "POS_SET")
                    case .bottom: (0, "POS_END")
                    case .up: (-1, "POS_CUR")
                    case .down: (1, "POS_CUR")
                    }
                _ = try await transport.call(
                    RemoteCall("aria2.changePosition", [.string(gid), .int(position), .string(how)]))
            }
        case .moveBefore(let id, let other):
            let queued = list.ordered.filter { $0.state == .waiting || $0.state.isPaused }.map(\.id)
            let target = other.flatMap { queued.firstIndex(of: $0) }
            let params: [JSONValue] =
                target.map { [.string(list.gid(for: id)), .int(Int64($0)), .string("POS_SET")] }
                ?? [.string(list.gid(for: id)), .int(0), .string("POS_END")]
            _ = try await transport.call(RemoteCall("aria2.changePosition", params))
        case .refresh(let id, let url):
            let old = list.downloads[id].map { [$0.url] + $0.request.sources.map(\.url) } ?? []
            _ = try await transport.call(
                RemoteCall(
                    "aria2.changeUri",
                    [.string(list.gid(for: id)), .int(1), .array(old.map(JSONValue.string)), .array([.string(url)])]))
        case .setMeteredMode, .setMeteredLimit, .setMeteredBudget, .allowMetered:
            _ = try await haulCommand(command)
        case .selectFiles(let id, let selection):
            _ = try await transport.call(
                RemoteCall(
                    "aria2.changeOption",
                    [.string(list.gid(for: id)), .object(["select-file": .string(selection?.description ?? "")])]))
        case .setSeedGoal(let selection, let goal):
            var options: [(String, String)] = []
            if let ratio = goal.ratio { options.append(("seed-ratio", String(ratio))) }
            if let minutes = goal.minutes { options.append(("seed-time", String(minutes))) }
            try await change(selection, options)
        case .follow:
            // aria2 runs every download it has.
            break
        case .renew:
            throw .unsupported("a download takes new options from 'haul URL' on the engine's own machine")
        case .setCookieFile, .setRPC, .setHooks, .setProxies, .setHostSettings, .setTorrentSettings:
            throw .unsupported("this setting is kept by the engine's own machine; change it there")
        }
        return Self.selection(of: command).map(ids) ?? []
    }

    /// The downloads a command names, which it answers with (as haul's engine does).
    private static func selection(of command: EngineCommand) -> DownloadSelection? {
        switch command {
        case .pause(let s), .resume(let s), .cancel(let s), .remove(let s, _), .retry(let s), .move(let s, _),
            .setDownloadSpeedLimit(let s, _), .setUploadLimit(let s, _), .allowMetered(let s, _),
            .setSeedGoal(let s, _):
            s
        case .setConnections(let s, _): s
        case .moveBefore(let id, _), .refresh(let id, _): .ids([id])
        default: nil
        }
    }

    private func ids(_ selection: DownloadSelection) -> [DownloadID] {
        switch selection {
        case .all: list.order
        case .ids(let ids): ids
        }
    }

    /// aria2.addUri's parameters for `request`: its URLs and the options aria2 names.
    static func addParameters(_ request: DownloadRequest) -> [JSONValue] {
        var options: [JSONValue.Member] = []
        if !request.directory.isEmpty { options.append(.init("dir", .string(request.directory))) }
        if let name = request.requestedName { options.append(.init("out", .string(name))) }
        if !request.headers.isEmpty {
            options.append(.init("header", .array(request.headers.map { .string("\($0.name): \($0.value)") })))
        }
        if let checksum = request.checksum { options.append(.init("checksum", .string(checksum.text))) }
        if let connections = request.connections, request.isTorrent {
            options.append(.init("bt-max-peers", .string(String(connections))))
        } else if let connections = request.connections {
            options.append(.init("split", .string(String(connections))))
            options.append(.init("max-connection-per-server", .string(String(min(connections, 16)))))
        }
        if let limit = request.speedLimit { options.append(.init("max-download-limit", .string(String(limit)))) }
        if let limit = request.uploadLimit { options.append(.init("max-upload-limit", .string(String(limit)))) }
        if let tries = request.tries { options.append(.init("max-tries", .string(String(tries)))) }
        if let ratio = request.seedGoal?.ratio { options.append(.init("seed-ratio", .string(String(ratio)))) }
        if let minutes = request.seedGoal?.minutes { options.append(.init("seed-time", .string(String(minutes)))) }
        if request.paused { options.append(.init("pause", .string("true"))) }
        if let selection = request.selectedFiles {
            options.append(.init("select-file", .string(selection.description)))
        }
        let urls = [request.url] + request.sources.map(\.url)
        return [.array(urls.map(JSONValue.string)), .object(options)]
    }

    private func gids(_ selection: DownloadSelection) -> [String] { ids(selection).map(list.gid(for:)) }

    /// `method` for each selected download in one request (`all` for every download when there
    /// is such a call). A download `applies` rejects is left out; should every call fail, the
    /// first failure is the answer.
    private func each(
        _ selection: DownloadSelection, all: String?, method: String, applies: (DownloadState) -> Bool
    ) async throws(RemoteFailure) {
        if case .all = selection, let all {
            _ = try await transport.call(RemoteCall(all))
            return
        }
        let chosen = ids(selection).filter { id in list.downloads[id].map { applies($0.state) } ?? true }
        try await succeedOnce(chosen.map { RemoteCall(method, [.string(list.gid(for: $0))]) })
    }

    private func succeedOnce(_ calls: [RemoteCall]) async throws(RemoteFailure) {
        guard !calls.isEmpty else { return }
        let results = try await transport.multicall(calls)
        if results.allSatisfy({ if case .failure = $0 { true } else { false } }), case .failure(let first) = results[0]
        {
            throw first
        }
    }

    /// aria2 pauses a running download once its connections have closed: waits up to two
    /// seconds for that, so what is reported next is the paused state.
    private func settle(_ selection: DownloadSelection) async {
        let calls = gids(selection).map { RemoteCall("aria2.tellStatus", [.string($0), .array([.string("status")])]) }
        guard !calls.isEmpty else { return }
        for _ in 0..<20 {
            guard let results = try? await transport.multicall(calls) else { return }
            let running = results.contains { (try? $0.get())?["status"]?.string == "active" }
            if !running { return }
            try? await clock.sleep(for: .milliseconds(100))
        }
    }

    /// Stops what runs and forgets the results (aria2 keeps a stopped download as a result).
    private func remove(_ selection: DownloadSelection) async throws(RemoteFailure) {
        var calls: [RemoteCall] = []
        for id in ids(selection) {
            let gid = list.gid(for: id)
            if let d = list.downloads[id], d.state == .finished || d.state.isFailed {
                calls.append(RemoteCall("aria2.removeDownloadResult", [.string(gid)]))
            } else {
                calls.append(RemoteCall("aria2.forceRemove", [.string(gid)]))
            }
        }
        try await succeedOnce(calls)
        // A download just stopped becomes a result a moment later: forget that too.
        let stopping = calls.filter { $0.method == "aria2.forceRemove" }
        guard !stopping.isEmpty else { return }
        try? await clock.sleep(for: .milliseconds(300))
        _ = try? await transport.multicall(stopping.map { RemoteCall("aria2.removeDownloadResult", $0.params) })
    }

    /// aria2 has no retry: a failed download is added again with its URLs and options, and its
    /// result forgotten; a paused one is resumed.
    private func retry(_ selection: DownloadSelection) async throws(RemoteFailure) {
        for id in ids(selection) {
            guard let d = list.downloads[id] else { continue }
            let gid = list.gid(for: id)
            if d.state.isPaused {
                _ = try await transport.call(RemoteCall("aria2.unpause", [.string(gid)]))
                continue
            }
            guard d.state.isFailed else { continue }
            let answers = try await transport.multicall([
                RemoteCall("aria2.getUris", [.string(gid)]), RemoteCall("aria2.getOption", [.string(gid)]),
            ])
            let uris = ((try? answers[0].get())?.array ?? []).compactMap { $0["uri"]?.string }
            let kept = ["dir", "out", "header", "split", "max-connection-per-server", "max-download-limit", "checksum"]
            let options = ((try? answers[1].get())?.members ?? []).filter { kept.contains($0.key) }
            _ = try await transport.call(
                RemoteCall(
                    "aria2.addUri", [.array((uris.isEmpty ? [d.url] : uris).map(JSONValue.string)), .object(options)]))
            _ = try? await transport.call(RemoteCall("aria2.removeDownloadResult", [.string(gid)]))
        }
    }

    private func global(_ options: [(String, String)]) async throws(RemoteFailure) {
        let object = JSONValue.object(options.map { JSONValue.Member($0.0, .string($0.1)) })
        _ = try await transport.call(RemoteCall("aria2.changeGlobalOption", [object]))
    }

    private func change(_ selection: DownloadSelection, _ options: [(String, String)]) async throws(RemoteFailure) {
        let object = JSONValue.object(options.map { JSONValue.Member($0.0, .string($0.1)) })
        try await succeedOnce(gids(selection).map { RemoteCall("aria2.changeOption", [.string($0), object]) })
    }

    /// A haul-only command, sent to a haul as `haul.command`.
    private func haulCommand(_ command: EngineCommand) async throws(RemoteFailure) -> [DownloadID] {
        guard engine.isHaul else {
            throw .unsupported("\(Self.feature(of: command)) is not supported by aria2")
        }
        var remoteCommand = command
        if case .allowMetered(let selection, let allowed) = command {
            remoteCommand = .allowMetered(.ids(gids(selection).map { DownloadID(rawValue: $0) }), allowed)
        }
        guard let json = try? JSONEncoder().encode(remoteCommand) else { return [] }
        _ = try await transport.call(RemoteCall("haul.command", [.string(String(decoding: json, as: UTF8.self))]))
        return []
    }

    static func feature(of command: EngineCommand) -> String {
        switch command {
        case .setMeteredMode: "metered mode"
        case .setMeteredLimit: "a metered cap"
        case .setMeteredBudget: "a metered data budget"
        case .allowMetered: "allowing a download on a metered network"
        case .setSpeedLimit: "a speed limit for part of the day"
        default: "this"
        }
    }
}
