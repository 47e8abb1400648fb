import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulRemote

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

    func run() async throws {
        if stop { return try await stopRunning() }
        let onComplete = try hookOptions.words()
        let access = try await EngineAccess.open(stateOptions) { $0.recordsAway = true }
        guard case .local(let engine) = access else {
            if case .remote(let owner) = access {
                Console.error(
                    "haul (pid \(owner.pid), \(owner.kind.rawValue)) already runs the downloads of "
                        + "\(stateOptions.statePath)"
                )
            }
            throw ExitStatus.stateUnavailable
        }
        let log: @Sendable (String) -> Void = { Console.error($0) }
        let host = await EngineHost.start(
            engine, options: stateOptions, kind: .daemon, onComplete: onComplete, log: log
        ) {
            Task { await engine.shutdown() }
        }
        let termination = Signals.onTermination { _ in Task { await engine.shutdown() } }
        defer { termination.cancel() }
        let logging = Task {
            await RunReporter(
                interactive: false, downloads: await engine.allDownloads, network: await engine.networkStatus
            ).consume(await engine.subscribe())
        }

        await engine.start()
        Console.out("haul daemon (pid \(getpid())) serving \(stateOptions.statePath) on \(host.server.location.path)")
        fflush(nil)
        while await !engine.isShutDown {
            await engine.waitUntilIdle()
            if exitWhenIdle, await engine.attachedUICount == 0, await engine.isIdle { break }
            try? await Task.sleep(for: .milliseconds(500))
        }
        await host.stop()
        await logging.value
        Console.out("haul daemon (pid \(getpid())) stopped")
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
