import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulRemote
import HaulStore
import HaulTerminal
import HaulUI
import Synchronization

/// `haul` with no arguments: the full-screen UI on its own thread, attached to the haul that
/// owns the state file (a daemon), or running the engine in-process when none does.
enum TUIApp {
    static func run(_ options: StateOptions, hooks: HookOptions) async throws {
        try requireTerminal()
        let onComplete = try hooks.words()
        switch try await EngineAccess.open(options) {
        case .local(let engine):
            let inbox = UIInbox()
            let host = await EngineHost.start(engine, options: options, kind: .tui, onComplete: onComplete) { inbox.push(.report($0, isError: true)) }
            await engine.start()
            let exit = try await present(engine, inbox: inbox, environment: options.environment, startMessage: engine.recoveryMessage)
            try await leave(host, exit, options: options, hooks: hooks)
        case .remote(let owner):
            let exit = try await present(owner, inbox: UIInbox(), environment: options.environment, startMessage: nil)
            await leave(owner, exit)
        }
    }

    /// Says so and fails when stdin or stdout is not a terminal.
    static func requireTerminal() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            Console.error("the full-screen UI needs a terminal on stdin and stdout; in scripts use 'haul add', 'haul run' and 'haul ls'")
            throw ExitStatus.badInput
        }
    }

    /// Runs the UI thread until the user leaves; the terminal is restored when this returns.
    static func present(
        _ engine: any EngineSession, inbox: UIInbox, environment: [String: String], startMessage: String?, asksToKeepRunning: Bool = true
    ) async throws -> UIExit {
        var attachment: EngineAttachment
        do { attachment = try await engine.attach(ui: true) } catch { throw Console.failure(error) }
        let events = attachment.events
        let forwarding = Task {
            for await event in events { inbox.push(.event(event)) }
            inbox.push(.engineStopped)
        }
        defer { forwarding.cancel() }
        let signalSources = Signals.onTermination { _ in inbox.requestStop() }
        defer { signalSources.forEach { $0.cancel() } }
        let home = StatePaths.home(environment)
        let directory = StatePaths.downloadDirectory(environment: environment)

        // The controller keeps its own copy; the snapshot (100,000 entries in a big list) is not held on to.
        let snapshot = Snapshot(attachment.snapshot.downloads)
        let network = attachment.snapshot.network
        let away = attachment.away
        attachment.snapshot.downloads = []
        let outcome: Result<UIExit, InputError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let terminal: CursesTerminal
                do {
                    terminal = try CursesTerminal(environment: environment)
                } catch {
                    continuation.resume(returning: .failure(InputError(String(describing: error))))
                    return
                }
                let size = terminal.size
                let controller = TUIController(
                    downloads: snapshot.take(), width: size.width, height: size.height,
                    defaultDirectory: directory, home: home, unicode: terminal.unicode, network: network,
                    asksToKeepRunning: asksToKeepRunning
                )
                if let startMessage { controller.report(startMessage, isError: true) }
                if let away { controller.showAway(away) }
                let exit = UILoop(terminal: terminal, controller: controller, inbox: inbox, engine: engine).run()
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
        let keepGoing = await engine.allDownloads.filter(TUIController.keepsGoing).count
        await host.stop()
        switch exit {
        case .quit(.background) where keepGoing == 0:
            Console.out("haul: nothing left to download")
        case .quit(.background):
            do {
                let pid = try await DaemonLauncher.launch(options, onComplete: hooks.onComplete)
                Console.out("haul: \(keepGoing) download(s) continue in the background (haul daemon, pid \(pid)); open haul to see them, 'haul daemon --stop' stops them")
            } catch {
                Console.error("could not start the background daemon: \(error); the downloads are saved and resume the next time you open haul or run 'haul run'")
                throw ExitStatus.stateUnavailable
            }
        case .quit(.pause):
            Console.out("haul: paused; 'haul resume --all' or P in haul resumes")
        case .quit(.leave), .signal, .ownerStopped:
            if keepGoing > 0 { Console.out("haul: \(keepGoing) download(s) saved; they resume the next time you open haul or run 'haul run'") }
        }
    }

    /// Leaving a TUI attached to a daemon: it keeps the downloads going, unless asked to pause.
    static func leave(_ owner: RemoteEngine, _ exit: UIExit) async {
        switch exit {
        case .quit(.pause):
            if let downloads = try? await owner.snapshot().downloads {
                let ids = downloads.filter { $0.state == .waiting || $0.state == .downloading }.map(\.id)
                _ = try? await owner.perform(.pause(.ids(ids)))
                try? await owner.save()
            }
            owner.close()
            Console.out("haul: paused; 'haul resume --all' or P in haul resumes")
        case .quit(.background), .quit(.leave), .signal:
            let running = (try? await owner.snapshot().downloads.filter(TUIController.keepsGoing).count) ?? 0
            owner.close()
            if running > 0 { Console.out("haul: \(running) download(s) continue in the background (haul \(owner.kind.rawValue), pid \(owner.pid))") }
        case .ownerStopped:
            Console.error("the haul serving the downloads (pid \(owner.pid)) stopped; nothing is lost: open haul again to go on")
        }
    }

    /// Hands the snapshot's list to the UI thread exactly once, so no other reference keeps it alive.
    private final class Snapshot: Sendable {
        private let downloads: Mutex<[Download]>
        init(_ list: [Download]) { downloads = Mutex(list) }
        func take() -> [Download] { downloads.withLock { list in defer { list = [] }; return list } }
    }

    private static func runningIDs(_ engine: Engine) async -> [DownloadID] {
        await engine.allDownloads.filter { $0.state == .waiting || $0.state == .downloading }.map(\.id)
    }
}
