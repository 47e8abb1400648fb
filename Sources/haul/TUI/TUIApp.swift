import ArgumentParser
import FoundationEssentials
import Glibc
import HaulCore
import HaulEngine
import HaulRPCClient
import HaulRemote
import HaulStore
import HaulTerminal
import HaulUI
import Synchronization

/// `haul` with no arguments: the full-screen UI on its own thread, attached to the haul that
/// owns the state file (a daemon), or running the engine in-process when none does.
///
/// The screen comes up first and the downloads follow: reading a state file with 100,000
/// entries takes a moment, and the terminal should answer at once.
enum TUIApp {
    static func run(_ options: StateOptions, remote: ConnectOptions, hooks: HookOptions, mouse: Bool = true)
        async throws
    {
        try requireTerminal()
        if remote.connect != nil { return try await runRemote(options, remote: remote, mouse: mouse) }
        let processHooks = try hooks.hooks()
        let inbox = UIInbox()
        let opened = Mutex<Opened?>(nil)
        let exit = try await present(inbox: inbox, environment: options.environment, mouse: mouse) {
            switch try await EngineAccess.attempt(options, configure: { $0.seedsFinishedTorrents = true }) {
            case .local(let engine):
                let host = await EngineHost.start(
                    engine, options: options, kind: .tui, hooks: processHooks,
                    log: { inbox.push(.report($0, isError: true)) },
                    hookOutput: { inbox.push(.report($0, isError: false)) })
                opened.withLock { $0 = .local(host) }
                if let message = engine.recoveryMessage { inbox.push(.report(message, isError: true)) }
                await engine.start()
                return engine
            case .remote(let owner):
                opened.withLock { $0 = .remote(owner) }
                return owner
            case .injected(let session):
                return session
            case .rpc(let session):
                return session
            }
        }
        switch opened.withLock({ $0 }) {
        case .local(let host): try await leave(host, exit, options: options, hooks: hooks)
        case .remote(let owner): await leave(owner, exit)
        case nil: break
        }
        if case .failed(let message) = exit {
            Console.error(message)
            throw ExitStatus.stateUnavailable
        }
    }

    /// The UI on an engine on another machine: it keeps its downloads when the UI leaves, so
    /// quitting asks nothing; the secret's clear-text warning is the first thing the UI shows.
    private static func runRemote(_ options: StateOptions, remote: ConnectOptions, mouse: Bool) async throws {
        let target: RPCSession.Target
        do throws(InputError) {
            guard let named = try remote.target(environment: options.environment) else { return }
            target = named
        } catch {
            throw error.reported()
        }
        let inbox = UIInbox()
        let session = Mutex<RPCSession?>(nil)
        let exit = try await present(
            inbox: inbox, environment: options.environment,
            startMessage: target.address.cleartextWarning(hasSecret: target.secret != nil), asksToKeepRunning: false,
            mouse: mouse
        ) {
            do {
                let reached = try await RPCSession.connect(
                    target, clock: options.clock, environment: options.environment)
                session.withLock { $0 = reached }
                return reached
            } catch {
                throw EngineAccess.Failure(message: String(describing: error))
            }
        }
        if let reached = session.withLock({ $0 }) { await reached.detachUI() }
        if case .failed(let message) = exit {
            Console.error(message)
            throw ExitStatus.stateUnavailable
        }
    }

    private enum Opened: Sendable {
        case local(EngineHost)
        case remote(RemoteEngine)
    }

    /// Says so and fails when stdin or stdout is not a terminal.
    static func requireTerminal() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            Console.error(
                "the full-screen UI needs a terminal on stdin and stdout; in scripts use 'haul add', 'haul run' and "
                    + "'haul ls'"
            )
            throw ExitStatus.badInput
        }
    }

    /// Runs the UI thread until the user leaves; the terminal is restored when this returns.
    /// `open` reaches the engine while the screen already shows; its failure ends the UI. `mouse`
    /// false leaves clicks and the wheel to the terminal (as `HAUL_NO_MOUSE` does).
    static func present(
        inbox: UIInbox, environment: [String: String], startMessage: String? = nil, asksToKeepRunning: Bool = true,
        mouse: Bool = true, open: @escaping @Sendable () async throws -> any EngineSession
    ) async throws -> UIExit {
        let termination = Signals.onTermination { _ in inbox.requestStop() }
        defer { termination.cancel() }
        let connecting = Task {
            do {
                var engine = try await open()
                while true {
                    let events: EngineEvents
                    do {
                        // The snapshot goes to the UI and is let go here: a list held while the
                        // engine changes its own makes the engine copy the whole list.
                        let attachment = try await engine.attach(ui: true)
                        events = attachment.events
                        inbox.push(.attached(engine, attachment.snapshot, away: attachment.away))
                    }
                    for await event in events { inbox.push(.event(event)) }
                    // The haul this UI was attached to went away (killed, or `haul daemon --stop`)
                    // while the UI stays open: the UI takes the downloads over and goes on.
                    guard let owner = engine as? RemoteEngine, !Task.isCancelled else { break }
                    inbox.push(
                        .report(
                            "the haul serving the downloads (pid \(owner.pid)) stopped; this window carries on with "
                                + "them",
                            isError: true))
                    engine = try await open()
                }
                inbox.push(.engineStopped)
            } catch let failure as EngineAccess.Failure {
                inbox.push(.failed(failure.message))
            } catch {
                inbox.push(.failed((error as? InputError)?.message ?? String(describing: error)))
            }
        }
        defer { connecting.cancel() }
        let home = StatePaths.home(environment)
        let directory = StatePaths.downloadDirectory(environment: environment)
        let rules: FolderRules
        var rulesProblem: String?
        do {
            rules = try FolderRulesFile.read(StatePaths.folderRules(environment: environment))
        } catch {
            rules = FolderRules()
            rulesProblem = error.message
        }
        let startMessage = startMessage ?? rulesProblem

        let outcome: Result<UIExit, InputError> = await withCheckedContinuation { continuation in
            DetachedThread.start {
                let terminal: CursesTerminal
                do {
                    terminal = try CursesTerminal(environment: environment, mouse: mouse)
                } catch {
                    continuation.resume(returning: .failure(InputError(String(describing: error))))
                    return
                }
                let size = terminal.size
                let controller = TUIController(
                    downloads: [], width: size.width, height: size.height,
                    defaultDirectory: directory, home: home, unicode: terminal.unicode,
                    asksToKeepRunning: asksToKeepRunning, folderRules: rules
                )
                let wallClock = WallClock(environment: environment)
                controller.wallClock = { wallClock.now() }
                controller.commandNames = CommandLineRunner.names
                controller.beginLoading()
                if let startMessage { controller.report(startMessage, isError: true) }
                let exit = UILoop(terminal: terminal, controller: controller, inbox: inbox).run()
                terminal.shutdown()
                continuation.resume(returning: .success(exit))
            }
        }
        switch outcome {
        case .success(let exit): return exit
        case .failure(let error): throw error.reported()
        }
    }

    /// Leaving a TUI that ran the engine itself: hand over to a daemon, pause, or stop.
    static func leave(_ host: EngineHost, _ exit: UIExit, options: StateOptions, hooks: HookOptions) async throws {
        let engine = host.engine
        if exit == .quit(.pause) { _ = try? await engine.perform(.pause(.ids(await runningIDs(engine)))) }
        let keepGoing = await engine.count { TUIController.keepsGoing($0.state) }
        await host.stop()
        switch exit {
        case .quit(.background) where keepGoing == 0:
            Console.out("haul: nothing left to download")
        case .quit(.background):
            do {
                let pid = try await DaemonLauncher.launch(options, hookArguments: hooks.arguments)
                Console.out(
                    "haul: \(keepGoing) download(s) continue in the background (haul daemon, pid \(pid)); open haul "
                        + "to see them, 'haul daemon --stop' stops them"
                )
            } catch {
                Console.error(
                    "could not start the background daemon: \(error); the downloads are saved and resume the next "
                        + "time you open haul or run 'haul run'"
                )
                throw ExitStatus.stateUnavailable
            }
        case .quit(.pause):
            Console.out("haul: paused; 'haul resume --all' or P in haul resumes")
        case .quit(.leave), .signal, .ownerStopped, .failed:
            if keepGoing > 0 {
                Console.out(
                    "haul: \(keepGoing) download(s) saved; they resume the next time you open haul or run 'haul run'")
            }
        }
    }

    /// Leaving a TUI attached to a daemon: it keeps the downloads going, unless asked to pause.
    static func leave(_ owner: RemoteEngine, _ exit: UIExit) async {
        switch exit {
        case .quit(.pause):
            if let downloads = try? await owner.snapshot().downloads.all {
                let ids = downloads.filter { $0.state == .waiting || $0.state == .downloading }.map(\.id)
                _ = try? await owner.perform(.pause(.ids(ids)))
                try? await owner.save()
            }
            owner.close()
            Console.out("haul: paused; 'haul resume --all' or P in haul resumes")
        case .quit(.background), .quit(.leave), .signal, .failed:
            let running = (try? await owner.snapshot().downloads.all.count { TUIController.keepsGoing($0.state) }) ?? 0
            owner.close()
            if running > 0 {
                // A `haul URL` ends with its own downloads, and leaves the others to the next haul.
                let until = owner.kind == .get ? " until its own are done; 'haul run' goes on with the rest" : ""
                Console.out(
                    "haul: \(running) download(s) continue in the background (\(owner.kind.processName), pid "
                        + "\(owner.pid))\(until)"
                )
            }
        case .ownerStopped:
            Console.error(
                "the haul serving the downloads (pid \(owner.pid)) stopped; nothing is lost: open haul again to go on")
        }
    }

    private static func runningIDs(_ engine: Engine) async -> [DownloadID] {
        await engine.ids { $0.state == .waiting || $0.state == .downloading }
    }
}
