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
    /// `-T` and `--connect-timeout`, for the engine this command runs.
    let timeouts: CommandTimeouts
    /// `-q`: only why a download failed is printed (see ``QuietOption``).
    let quiet: Bool
    /// `-nv`: no live lines, and no line when a download starts.
    let brief: Bool
    /// `-nc`: a URL whose file is already here is not fetched (see ``NoClobber``).
    let noClobber: Bool
    /// `--max-time`: when the command stops, wherever the downloads run.
    let deadline: CommandDeadline?
    let stateOptions: StateOptions
    let hooks: ProcessHooks

    func run() async throws {
        var requests: [DownloadRequest]
        do throws(InputError) {
            requests = try resolvedRequests()
        } catch {
            throw error.reported()
        }
        if noClobber {
            let present: [String]
            (requests, present) = NoClobber.split(requests) { FileManager.default.fileExists(atPath: $0) }
            if !quiet {
                for path in present { Console.out("\(TerminalText.sanitize(path)) is here already: not fetched (-nc)") }
            }
            guard !requests.isEmpty else { return }
        }
        Engine.warmUpNetworking()
        // An owner that leaves before the downloads are done hands them back: the state is
        // opened again, and taken here or by the next owner.
        var handOvers = 0
        var left: RemoteEngine?
        while true {
            // After an owner left, what this command already fetched is not news: it said so.
            let firstRound = left == nil
            switch try await EngineAccess.open(stateOptions, after: left, configure: timeouts.apply) {
            case .local(let engine): return try await runHere(engine, requests, sayingWhatIsHere: firstRound)
            case .remote(let owner):
                if firstRound, !timeouts.isEmpty, !quiet {
                    Console.warn(
                        "-T and --connect-timeout hold where this command runs the downloads itself; haul (pid "
                            + "\(owner.pid), \(owner.kind.name)) keeps its own")
                }
                handOvers += 1
                left = owner
                guard
                    try await handOver(
                        requests, to: owner, last: handOvers == Self.mostHandOvers, sayingWhatIsHere: firstRound)
                        == .ownerLeft
                else { return }
            case .injected, .rpc: throw InputError("'haul URL' downloads on this machine").reported()
            }
        }
    }

    /// Owners in a row a command follows before it stops following one that leaves: a service
    /// manager restarting a daemon that keeps dying must not keep this command going for ever.
    static let mostHandOvers = 8

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

    /// What the same command already did: the downloads it follows, and those of them an earlier
    /// run finished whose file is still where it was put.
    struct Adopted {
        var ids: [DownloadID]
        var alreadyHere: [Download]
    }

    /// Adds what is new and takes up what an earlier run of the same command left in the same
    /// folder (``EarlierRuns``). One it left unfinished goes on; of its own URL, with the options
    /// given now (a new `--proxy`, `--header` or `--limit` holds, as a new wget command line
    /// does). One it finished whose file is still there is done (a list run again after Ctrl-C
    /// fetches only what is missing; `haul add` fetches another copy).
    private static func adopt(_ requests: [DownloadRequest], known: [Download], session: any EngineSession)
        async throws -> Adopted
    {
        let earlier = EarlierRuns(known) { FileManager.default.fileExists(atPath: $0) }
        var ids: [DownloadID?] = []
        var alreadyHere: [Download] = []
        var toAdd: [DownloadRequest] = []
        var toResume: [DownloadID] = []
        var toRetry: [DownloadID] = []
        var renewals: [Renewal] = []
        for request in requests {
            let left = earlier.left(by: request)
            let gone = earlier.gone(by: request)
            if left.isEmpty, gone.isEmpty {
                ids.append(nil)
                toAdd.append(request)
            }
            for d in gone {
                ids.append(d.id)
                toRetry.append(d.id)
            }
            for d in left {
                ids.append(d.id)
                if d.state == .finished {
                    alreadyHere.append(d)
                    continue
                }
                // Only the ones whose options change: the engine restarts a running one for them.
                var probe = d
                if d.url == request.url, probe.renew(with: request) {
                    renewals.append(Renewal(id: d.id, request: request))
                }
                if d.state.isPaused { toResume.append(d.id) }
                if d.state.isFailed { toRetry.append(d.id) }
            }
        }
        if !renewals.isEmpty { try await session.perform(.renew(renewals)) }
        if !toResume.isEmpty { try await session.perform(.resume(.ids(toResume))) }
        if !toRetry.isEmpty { try await session.perform(.retry(.ids(toRetry))) }
        let addedIDs = toAdd.isEmpty ? [] : try await session.perform(.add(toAdd))
        var added = addedIDs.makeIterator()
        return Adopted(ids: ids.compactMap { $0 ?? added.next() }, alreadyHere: alreadyHere)
    }

    /// What an earlier run of the command finished: a line each, or one line for a long list.
    private static func sayAlreadyHere(_ downloads: [Download]) {
        guard downloads.count <= 5 else {
            Console.out(
                "\(downloads.count) of these are already here, fetched by an earlier run ('haul add URL' fetches "
                    + "another copy)")
            return
        }
        for d in downloads {
            guard let path = d.path else { continue }
            // The URL the command named: a Metalink's file names the Metalink's as its first previous URL.
            let url = TerminalText.sanitize(Redaction.url(d.previousURLs.first ?? d.url))
            Console.out("\(d.id) already here: \(TerminalText.sanitize(path)) ('haul add \(url)' fetches another copy)")
        }
    }

    /// No haul owns the state: this process runs the downloads and stops when they are done.
    private func runHere(_ engine: Engine, _ requests: [DownloadRequest], sayingWhatIsHere: Bool) async throws {
        let adopted: Adopted
        do {
            if let concurrency { try await engine.perform(.setConcurrency(concurrency)) }
            adopted = try await Self.adopt(requests, known: engine.allDownloads, session: engine)
        } catch {
            throw Console.failure(error)
        }
        if !quiet, sayingWhatIsHere { Self.sayAlreadyHere(adopted.alreadyHere) }
        var followed = FollowedDownloads(adopted.ids)
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
                interactive: Console.stdoutIsTerminal, downloads: known, network: network,
                clock: stateOptions.wallClock,
                quiet: quiet, brief: brief
            ).consume(shown)
        }
        let host = await EngineHost.start(
            engine, options: stateOptions, kind: .get, hooks: hooks, log: { Console.warn($0) },
            hookOutput: { Console.note($0) }, onShutdownRequest: { Task { await engine.shutdown() } })
        let termination = Signals.onTermination { _ in Task { await engine.shutdown() } }
        let timer = deadline?.watch { await engine.shutdown() }
        await engine.start()
        let watching = Task { [followed] in
            var followed = followed
            if followed.allDone { return followed }
            for await burst in events.bursts {
                sender.send(burst.filter { followed.take($0) })
                if followed.allDone { break }
            }
            return followed
        }
        let outcome = await watching.value
        let interrupted = !outcome.allDone
        timer?.cancel()
        let timedOut = await timer?.value ?? false
        await engine.shutdown()
        sender.finish()
        await host.stop()
        await printing.value
        termination.cancel()
        let followedAtEnd = outcome.ids
        if !quiet {
            let all = await engine.allDownloads.filter { followedAtEnd.contains($0.id) }
            if interrupted, timedOut, let deadline { Console.warn(deadline.sentence) }
            RunReporter.summary(all, failedIDs: outcome.failed, interrupted: interrupted)
            RunReporter.noteSeeding(all, under: await engine.snapshot().torrents)
        }
        if interrupted { throw timedOut ? ExitStatus.downloadFailed : ExitStatus.interrupted }
        if !outcome.failed.isEmpty { throw ExitStatus.downloadFailed }
    }

    /// A daemon or a UI owns the state: it takes the downloads, and this process follows them
    /// until they are done (Ctrl-C stops following, not the downloads) or the owner leaves
    /// (unless this is the `last` owner it follows).
    private func handOver(
        _ requests: [DownloadRequest], to owner: RemoteEngine, last: Bool, sayingWhatIsHere: Bool
    ) async throws
        -> FollowEnd
    {
        if !quiet {
            Console.warn(
                "haul (pid \(owner.pid), \(owner.kind.name)) took the downloads; following them here (Ctrl-C "
                    + "stops following, not the downloads)")
        }
        let (stop, termination) = FollowStop.watching(owner)
        defer { termination.cancel() }
        let timer = deadline?.watch {
            stop.ask()
            owner.close()
        }
        defer { timer?.cancel() }
        var followed: FollowedDownloads
        var interrupted = false
        var timedOut = false
        do {
            let attachment = try await owner.attach(ui: false)
            if let concurrency { try await owner.perform(.setConcurrency(concurrency)) }
            let adopted = try await Self.adopt(requests, known: attachment.snapshot.downloads.all, session: owner)
            if !quiet, sayingWhatIsHere { Self.sayAlreadyHere(adopted.alreadyHere) }
            followed = FollowedDownloads(adopted.ids)
            // An owner that is itself a `haul URL` runs them now rather than after its own. A
            // haul too old to know the command runs them when it can.
            _ = try? await owner.perform(.follow(adopted.ids))
            let followedIDs = followed.ids
            let known = try await owner.snapshot().downloads.all.filter { followedIDs.contains($0.id) }
            followed.apply(known)
            let (shown, sender) = EngineEvents.makeStream()
            let network = attachment.snapshot.network
            let printing = Task {
                await RunReporter(
                    interactive: Console.stdoutIsTerminal, downloads: known, network: network,
                    clock: stateOptions.wallClock, quiet: quiet, brief: brief
                ).consume(shown)
            }
            if !followed.allDone {
                for await burst in attachment.events.bursts {
                    sender.send(
                        burst.filter { event in
                            guard followed.take(event) else { return false }
                            // Added by this command after it attached: the snapshot the lines
                            // start from has them already, and they would be counted twice.
                            if case .added(let d) = event, followedIDs.contains(d.id) { return false }
                            return true
                        })
                    if followed.allDone { break }
                }
            }
            interrupted = !followed.allDone
            sender.finish()
            await printing.value
            if interrupted, stop.ownerLeft(owner), !last {
                if !quiet { FollowStop.sayOwnerLeft(owner) }
                return .ownerLeft
            }
            let all = interrupted ? known : try await owner.snapshot().downloads.all
            owner.close()
            let followedAtEnd = followed.ids
            timer?.cancel()
            timedOut = await timer?.value ?? false
            if !quiet, interrupted, timedOut, let deadline { Console.warn(deadline.sentence) }
            if !quiet {
                // Stopped following, the states the events gave are as new as the owner's.
                let shown = all.filter { followedAtEnd.contains($0.id) }
                RunReporter.summary(
                    states: interrupted ? followed.latestStates(of: shown) : shown.map(\.state),
                    failedIDs: followed.failed, interrupted: interrupted,
                    goingOnIn: "haul (pid \(owner.pid), \(owner.kind.name))")
            }
        } catch {
            if stop.ownerLeft(owner), !last {
                if !quiet { FollowStop.sayOwnerLeft(owner) }
                return .ownerLeft
            }
            throw Console.failure(error)
        }
        if interrupted { throw timedOut ? ExitStatus.downloadFailed : ExitStatus.interrupted }
        if !followed.failed.isEmpty { throw ExitStatus.downloadFailed }
        return .done
    }
}
