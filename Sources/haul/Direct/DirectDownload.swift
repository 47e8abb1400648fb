import FoundationEssentials
import HaulCore
import HaulEngine
import HaulRemote

/// `haul URL…`: downloads the URLs into the current directory and returns when they are done, as
/// `wget URL` and `aria2c URL` do. The downloads go through the same add path as `haul add`
/// (folder rules, netrc, proxies) into the same state, so a Ctrl-C keeps every byte and the same
/// command resumes them. Only these downloads run: the rest of the queue is left to whoever runs
/// it. When a daemon or a UI already owns the state, the downloads are handed to it and followed
/// here.
struct DirectDownload {
    let urls: [String]
    let options: DownloadOptions
    /// How many run at once, saved as `haul run -j` saves it; nil keeps the saved number.
    let concurrency: Int?
    let stateOptions: StateOptions
    let hooks: ProcessHooks

    func run() async throws {
        let requests: [DownloadRequest]
        do throws(InputError) {
            requests = try resolvedRequests()
        } catch {
            throw error.reported()
        }
        Engine.warmUpNetworking()
        switch try await EngineAccess.open(stateOptions) {
        case .local(let engine): try await runHere(engine, requests)
        case .remote(let owner): try await handOver(requests, to: owner)
        case .injected, .rpc: throw InputError("'haul URL' downloads on this machine").reported()
        }
    }

    /// The requests, resolved here as the engine would (the current directory where neither `-d`
    /// nor a folder rule places a file), so a rerun finds the downloads it started; a URL given
    /// twice is fetched once.
    private func resolvedRequests() throws(InputError) -> [DownloadRequest] {
        let plan = try AddPlan.make(
            urls: urls, options, environment: stateOptions.environment,
            defaultDirectory: FileManager.default.currentDirectoryPath)
        var seen = Set<String>()
        return plan.requests.filter { seen.insert($0.url).inserted }
    }

    /// Adds what is new and takes up what an earlier run of the same command left unfinished:
    /// the same URL into the same folder.
    private static func adopt(_ requests: [DownloadRequest], known: [Download], session: any EngineSession) async throws
        -> [DownloadID]
    {
        var unfinished: [String: Download] = [:]
        for d in known where d.state != .finished {
            unfinished[d.directory + "\n" + d.url] = d
        }
        var ids: [DownloadID?] = []
        var toAdd: [DownloadRequest] = []
        var toResume: [DownloadID] = []
        var toRetry: [DownloadID] = []
        for request in requests {
            if let earlier = unfinished[request.directory + "\n" + request.url] {
                ids.append(earlier.id)
                if earlier.state.isPaused { toResume.append(earlier.id) }
                if earlier.state.isFailed { toRetry.append(earlier.id) }
            } else {
                ids.append(nil)
                toAdd.append(request)
            }
        }
        if !toResume.isEmpty { try await session.perform(.resume(.ids(toResume))) }
        if !toRetry.isEmpty { try await session.perform(.retry(.ids(toRetry))) }
        let addedIDs = toAdd.isEmpty ? [] : try await session.perform(.add(toAdd))
        var added = addedIDs.makeIterator()
        return ids.compactMap { $0 ?? added.next() }
    }

    /// No haul owns the state: this process runs the downloads and stops when they are done.
    private func runHere(_ engine: Engine, _ requests: [DownloadRequest]) async throws {
        let ids: [DownloadID]
        do {
            if let concurrency { try await engine.perform(.setConcurrency(concurrency)) }
            ids = try await Self.adopt(requests, known: engine.allDownloads, session: engine)
        } catch {
            throw Console.failure(error)
        }
        var followed = FollowedDownloads(ids)
        let events = await engine.subscribe()
        await engine.focus(on: followed.ids)
        let followedIDs = followed.ids
        let known = await engine.allDownloads.filter { followedIDs.contains($0.id) }
        followed.apply(known)
        let (shown, sender) = EngineEvents.makeStream()
        // The network as it is now: only a change of it is worth a line.
        let network = await engine.networkStatus
        let printing = Task {
            await RunReporter(
                interactive: Console.stdoutIsTerminal, downloads: known, network: network, clock: stateOptions.wallClock
            ).consume(shown)
        }
        let host = await EngineHost.start(
            engine, options: stateOptions, kind: .run, hooks: hooks, log: { Console.warn($0) },
            onShutdownRequest: { Task { await engine.shutdown() } })
        let termination = Signals.onTermination { _ in Task { await engine.shutdown() } }
        await engine.start()
        let watching = Task { [followed] in
            var followed = followed
            if followed.allDone { return followed }
            for await burst in events.bursts {
                let mine = burst.filter(followed.concerns)
                for event in mine { followed.apply(event) }
                sender.send(mine)
                if followed.allDone { break }
            }
            return followed
        }
        let outcome = await watching.value
        let interrupted = !outcome.allDone
        await engine.shutdown()
        sender.finish()
        await host.stop()
        await printing.value
        termination.cancel()
        let all = await engine.allDownloads.filter { followedIDs.contains($0.id) }
        RunReporter.summary(all, failedIDs: outcome.failed, interrupted: interrupted)
        RunReporter.noteSeeding(all, under: await engine.snapshot().torrents)
        if interrupted { throw ExitStatus.interrupted }
        if !outcome.failed.isEmpty { throw ExitStatus.downloadFailed }
    }

    /// A daemon or a UI owns the state: it takes the downloads, and this process follows them
    /// until they are done (Ctrl-C stops following, not the downloads).
    private func handOver(_ requests: [DownloadRequest], to owner: RemoteEngine) async throws {
        Console.warn(
            "haul (pid \(owner.pid), \(owner.kind.rawValue)) took the downloads; following them here (Ctrl-C stops "
                + "following, not the downloads)")
        let termination = Signals.onTermination { _ in owner.close() }
        defer { termination.cancel() }
        var followed: FollowedDownloads
        var interrupted = false
        do {
            let attachment = try await owner.attach(ui: false)
            if let concurrency { try await owner.perform(.setConcurrency(concurrency)) }
            let ids = try await Self.adopt(requests, known: attachment.snapshot.downloads.all, session: owner)
            followed = FollowedDownloads(ids)
            let followedIDs = followed.ids
            let known = try await owner.snapshot().downloads.all.filter { followedIDs.contains($0.id) }
            followed.apply(known)
            let (shown, sender) = EngineEvents.makeStream()
            let network = attachment.snapshot.network
            let printing = Task {
                await RunReporter(
                    interactive: Console.stdoutIsTerminal, downloads: known, network: network,
                    clock: stateOptions.wallClock
                ).consume(
                    shown)
            }
            if !followed.allDone {
                for await burst in attachment.events.bursts {
                    let mine = burst.filter(followed.concerns)
                    for event in mine { followed.apply(event) }
                    sender.send(mine)
                    if followed.allDone { break }
                }
            }
            interrupted = !followed.allDone
            sender.finish()
            await printing.value
            let all = interrupted ? known : try await owner.snapshot().downloads.all
            owner.close()
            RunReporter.summary(
                all.filter { followedIDs.contains($0.id) }, failedIDs: followed.failed, interrupted: interrupted)
        } catch {
            throw Console.failure(error)
        }
        if interrupted { throw ExitStatus.interrupted }
        if !followed.failed.isEmpty { throw ExitStatus.downloadFailed }
    }
}
