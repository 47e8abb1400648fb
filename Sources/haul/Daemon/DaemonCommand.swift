import ArgumentParser
import FoundationEssentials
import Glibc
import HaulCore
import HaulEngine
import HaulRemote
import Synchronization

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the downloads in the background, without a terminal.",
        discussion: """
            The TUI and every command talk to a running daemon over a Unix socket in \
            $XDG_RUNTIME_DIR/haul/ (or <state directory>/run/). Quitting the TUI with downloads \
            running offers to start one. While no TUI is attached, the daemon notes what finished, \
            failed or waits for an unmetered network; the next TUI shows it. Stop it with \
            'haul daemon --stop' or SIGTERM: every byte is kept and resumes later.
            """
    )

    @Flag(name: .long, help: "Exit once nothing is left to download and no TUI is attached.")
    var exitWhenIdle = false

    @Flag(name: .long, help: "Stop the daemon serving this state file.")
    var stop = false

    @OptionGroup var hookOptions: HookOptions
    @OptionGroup var stateOptions: StateOptions

    /// How long an idle daemon that exits when idle waits after the last client left: a command
    /// that started it by connecting is served before it goes.
    static let idleGrace: Duration = .seconds(2)

    func run() async throws {
        if stop { return try await stopRunning() }
        // Taken first, so nothing this process starts inherits them.
        let passed = PassedSockets.claim(environment: ProcessInfo.processInfo.environment)
        let notifier = ServiceNotifier.claim()
        if JournalStream.stderrIsJournal { Console.daemonLogsToJournal.withLock { $0 = true } }
        let hooks = try hookOptions.hooks()
        // Started by a connection to sockets passed in, it never connects to them itself.
        let access = try await EngineAccess.open(stateOptions, connecting: passed.isEmpty) {
            $0.recordsAway = true
            $0.seedsFinishedTorrents = true
        }
        guard case .local(let engine) = access else {
            if case .remote(let owner) = access {
                Console.error(
                    "haul (pid \(owner.pid), \(owner.kind.name)) already runs the downloads of "
                        + "\(stateOptions.statePath)"
                )
            }
            throw ExitStatus.stateUnavailable
        }
        let log: @Sendable (String) -> Void = { Console.error($0) }
        let host = await EngineHost.start(
            engine, options: stateOptions, kind: .daemon, hooks: hooks, log: log,
            onShutdownRequest: { Task { await engine.shutdown() } }, passed: passed
        )
        let termination = Signals.onTermination { _ in
            notifier.stopping()
            Task { await engine.shutdown() }
        }
        defer { termination.cancel() }
        // Subscribed before the engine starts: what it finds at start (a torrent that cannot
        // seed, a download resumed) is logged too.
        let events = await engine.subscribe()
        let (known, network) = (await engine.allDownloads, await engine.networkStatus)
        let logging = Task {
            await RunReporter(
                interactive: false, downloads: known, network: network, clock: stateOptions.wallClock,
                journal: Console.journal
            ).consume(events)
        }
        let reporting = notifier.isActive ? Task { await Self.report(engine, to: notifier) } : nil

        await engine.start()
        let place = passed.isEmpty ? host.server.location.path : "the sockets the service manager passed in"
        Console.out("haul daemon (pid \(getpid())) serving \(stateOptions.statePath) on \(place)")
        fflush(nil)
        while await !engine.isShutDown {
            await engine.waitUntilIdle()
            if exitWhenIdle, await engine.attachedUICount == 0, await engine.isIdle,
                await !host.hasClients(within: Self.idleGrace)
            {
                break
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
        notifier.stopping(await engine.isShutDown ? "stopping; every byte is kept" : "nothing left to download")
        reporting?.cancel()
        await host.stop()
        await logging.value
        Console.out("haul daemon (pid \(getpid())) stopped")
    }

    /// `READY=1` once the engine runs, then the status line every few seconds until cancelled.
    private static func report(_ engine: Engine, to notifier: ServiceNotifier) async {
        let status = Mutex(ServiceStatus())
        let events = await engine.subscribe()
        let following = Task {
            for await burst in events.bursts {
                let now = ProcessClock.seconds()
                status.withLock { status in
                    for event in burst {
                        switch event {
                        case .progress(let sample): status.record(sample, at: now)
                        case .updated(let d) where d.state != .downloading: status.forget(d.id)
                        case .removed(let id): status.forget(id)
                        default: continue
                        }
                    }
                }
            }
        }
        defer { following.cancel() }
        notifier.ready(status: status.withLock { $0.line(at: ProcessClock.seconds()) })
        var last = ""
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(2))
            let line = status.withLock { $0.line(at: ProcessClock.seconds()) }
            if line != last { notifier.status(line) }
            last = line
        }
    }

    private func stopRunning() async throws {
        guard let owner = try await EngineAccess.connect(stateOptions) else {
            Console.out("no haul daemon runs for \(stateOptions.statePath)")
            return
        }
        do {
            try await owner.shutdownDaemon()
        } catch {
            throw Console.failure(error)
        }
        // Gone when its socket no longer answers.
        for _ in 0..<200 {
            guard let again = try? await RemoteEngine.connect(stateOptions.socketLocation) else { break }
            again.close()
            try await Task.sleep(for: .milliseconds(50))
        }
        Console.out("stopped haul daemon (pid \(owner.pid)); its downloads resume when haul runs again")
    }
}
