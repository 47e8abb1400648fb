import ArgumentParser
import HaulCore
import HaulEngine
import HaulRemote

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Download everything queued, without the TUI, until nothing is waiting or downloading.",
        discussion:
            "On a terminal, one updating line per active download and one for the list (files done, bytes, speed, "
            + "time left); otherwise one log line per event. Downloads "
            + "waiting for an unmetered network or for disk space are waited for. Ctrl-C stops and keeps every "
            + "byte: the next run resumes. When a daemon or a TUI already runs the downloads, this follows them "
            + "instead (Ctrl-C then only stops following). Exit code 1 if any download failed in this run, 130 "
            + "if interrupted."
    )

    @Option(
        name: [.customShort("j", allowingJoined: true), .long],
        help: ArgumentHelp(
            "How many downloads run at once (saved for next time); up to 8 small files of an HTTP/2 host "
                + "share one place.", valueName: "n"))
    var concurrency: Int?

    @OptionGroup var quietOption: QuietOption
    @OptionGroup var hookOptions: HookOptions
    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        let hooks = try hookOptions.hooks()
        // Its event loops start while the state is read (unless another haul owns it, when
        // they are two idle threads).
        Engine.warmUpNetworking()
        // An owner that leaves while downloads are left hands the queue back (see `DirectDownload`).
        var follows = 0
        var left: RemoteEngine?
        while true {
            switch try await EngineAccess.open(stateOptions, after: left) {
            case .local(let engine): return try await runHere(engine, hooks: hooks)
            case .remote(let owner):
                follows += 1
                left = owner
                guard try await follow(owner, last: follows == DirectDownload.mostHandOvers) == .ownerLeft else {
                    return
                }
            case .injected: throw InputError("'run' works the queue from a shell; the UI already runs it").reported()
            case .rpc: throw InputError("'run' works this machine's queue").reported()
            }
        }
    }

    private func runHere(_ engine: Engine, hooks: ProcessHooks) async throws {
        if let concurrency {
            do { try await engine.perform(.setConcurrency(concurrency)) } catch { throw error.reported() }
        }
        let events = await engine.subscribe()
        let known = await engine.allDownloads
        let network = await engine.networkStatus
        let printing = Task {
            await RunReporter(
                interactive: Console.stdoutIsTerminal, downloads: known, network: network,
                clock: stateOptions.wallClock,
                quiet: quietOption.quiet, brief: quietOption.brief
            ).consume(events)
        }
        let host = await EngineHost.start(
            engine, options: stateOptions, kind: .run, hooks: hooks, log: { Console.warn($0) },
            hookOutput: { Console.note($0) }, onShutdownRequest: { Task { await engine.shutdown() } })
        let termination = Signals.onTermination { _ in
            Task { await engine.shutdown() }
        }

        await engine.start()
        await engine.waitUntilIdle()
        let interrupted = await engine.isShutDown
        await host.stop()
        await printing.value
        termination.cancel()

        let failed = await engine.failedThisRun
        if !quietOption.quiet {
            let all = await engine.allDownloads
            RunReporter.summary(Self.ofThisRun(all, before: known), failedIDs: failed, interrupted: interrupted)
            RunReporter.noteSeeding(all, under: await engine.snapshot().torrents)
        }
        if interrupted { throw ExitStatus.interrupted }
        if !failed.isEmpty { throw ExitStatus.downloadFailed }
    }

    /// What a run's summary counts of `downloads`: what it did and left, not the files finished
    /// before it began (in `before`).
    private static func ofThisRun(_ downloads: [Download], before: [Download]) -> [Download] {
        let finishedBefore = Set(before.lazy.filter { $0.state == .finished }.map(\.id))
        return downloads.filter { !finishedBefore.contains($0.id) }
    }

    /// Another haul owns the downloads: show them until nothing is left to do there, or until it
    /// leaves (unless it is the `last` owner followed).
    private func follow(_ owner: RemoteEngine, last: Bool) async throws -> FollowEnd {
        if !quietOption.quiet {
            Console.warn(
                "haul (pid \(owner.pid), \(owner.kind.name)) is running the downloads; following it (Ctrl-C "
                    + "stops following, not the downloads)")
        }
        let (stop, termination) = FollowStop.watching(owner)
        var interrupted = false
        var ownerLeft = false
        let before: [Download]
        var after: [Download] = []
        do {
            if let concurrency { try await owner.perform(.setConcurrency(concurrency)) }
            let attachment = try await owner.attach(ui: false)
            before = try attachment.snapshot.downloads.all
            // An owner that is a `haul URL` runs the whole queue now, not only its own downloads.
            _ = try? await owner.perform(.follow(before.filter { $0.state != .finished }.map(\.id)))
            let printing = Task {
                await RunReporter(
                    interactive: Console.stdoutIsTerminal, downloads: before, network: attachment.snapshot.network,
                    clock: stateOptions.wallClock, quiet: quietOption.quiet, brief: quietOption.brief
                ).consume(attachment.events)
            }
            do {
                try await owner.waitUntilIdle()
                after = try await owner.snapshot().downloads.all
            } catch {
                interrupted = true
                // Asked before this command closes the connection itself.
                ownerLeft = stop.ownerLeft(owner)
            }
            owner.close()
            await printing.value
        } catch {
            if stop.ownerLeft(owner), !last {
                if !quietOption.quiet { FollowStop.sayOwnerLeft(owner) }
                return .ownerLeft
            }
            throw Console.failure(error)
        }
        termination.cancel()
        if ownerLeft, !last {
            if !quietOption.quiet { FollowStop.sayOwnerLeft(owner) }
            return .ownerLeft
        }
        let failedBefore = Set(before.filter { $0.state.isFailed }.map(\.id))
        let failed = Set(after.filter { $0.state.isFailed && !failedBefore.contains($0.id) }.map(\.id))
        if !quietOption.quiet {
            RunReporter.summary(
                Self.ofThisRun(interrupted ? before : after, before: before), failedIDs: failed,
                interrupted: interrupted)
        }
        if interrupted { throw ExitStatus.interrupted }
        if !failed.isEmpty { throw ExitStatus.downloadFailed }
        return .done
    }
}
