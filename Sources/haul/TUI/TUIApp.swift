import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulStore
import HaulTerminal
import HaulUI

/// `haul` with no arguments: the engine in-process, the full-screen UI on its own thread.
enum TUIApp {
    static func run(_ stateOptions: StateOptions) async throws {
        try requireTerminal()
        let engine = try stateOptions.openEngine()
        try await run(engine: engine, environment: stateOptions.environment, startMessage: engine.recoveryMessage)
    }

    /// Says so and fails when stdin or stdout is not a terminal.
    static func requireTerminal() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            Console.error("the full-screen UI needs a terminal on stdin and stdout; in scripts use 'haul add', 'haul run' and 'haul ls'")
            throw ExitStatus.badInput
        }
    }

    static func run(engine: Engine, environment: [String: String], startMessage: String?, announceSaved: Bool = true) async throws {
        let inbox = UIInbox()
        let events = await engine.subscribe()
        let forwarding = Task {
            for await event in events { inbox.push(.event(event)) }
            inbox.push(.engineStopped)
        }
        let signalSources = Signals.onTermination { _ in inbox.requestStop() }
            + [Signals.onControlRequest { Task { await engine.applyControlRequest() } }]
        defer { signalSources.forEach { $0.cancel() } }

        await engine.start()
        let downloads = await engine.allDownloads
        let network = await engine.networkStatus
        let home = StatePaths.home(environment)
        let directory = StatePaths.downloadDirectory(environment: environment)

        let failure: String? = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let terminal: CursesTerminal
                do {
                    terminal = try CursesTerminal(environment: environment)
                } catch {
                    continuation.resume(returning: String(describing: error))
                    return
                }
                let size = terminal.size
                let controller = TUIController(
                    downloads: downloads, width: size.width, height: size.height,
                    defaultDirectory: directory, home: home, unicode: terminal.unicode, network: network
                )
                if let startMessage { controller.report(startMessage, isError: true) }
                UILoop(terminal: terminal, controller: controller, inbox: inbox, engine: engine).run()
                terminal.shutdown()
                continuation.resume(returning: nil)
            }
        }
        await engine.shutdown()
        forwarding.cancel()
        if let failure {
            Console.error(failure)
            throw ExitStatus.badInput
        }
        let all = await engine.allDownloads
        let active = all.filter { $0.state.isActive }.count
        if active > 0, announceSaved { Console.out("haul: \(active) download(s) saved; they resume the next time you open haul or run 'haul run'") }
    }
}
