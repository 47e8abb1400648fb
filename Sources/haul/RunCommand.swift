import ArgumentParser
import HaulCore
import HaulEngine

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Download everything queued, without the TUI, until nothing is waiting or downloading.",
        discussion: "On a terminal, one updating line per active download; otherwise one log line per event. Downloads waiting for an unmetered network or for disk space are waited for. Ctrl-C stops and keeps every byte: the next run resumes. Exit code 1 if any download failed in this run, 130 if interrupted."
    )

    @Option(name: [.customShort("j"), .long], help: ArgumentHelp("How many downloads run at once (saved for next time).", valueName: "n"))
    var concurrency: Int?

    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        let engine = try stateOptions.openEngine()
        if let concurrency {
            do { try await engine.perform(.setConcurrency(concurrency)) } catch { throw error.reported() }
        }
        let events = await engine.subscribe()
        let interactive = Console.stdoutIsTerminal
        let known = await engine.allDownloads
        let printing = Task { await RunReporter(interactive: interactive, downloads: known).consume(events) }
        let signalSources = Signals.onTermination { _ in
            Task { await engine.shutdown() }
        } + [Signals.onControlRequest { Task { await engine.applyControlRequest() } }]

        await engine.start()
        await engine.waitUntilIdle()
        let interrupted = await engine.isShutDown
        await engine.shutdown()
        await printing.value
        _ = signalSources

        let failed = await engine.failedThisRun
        let all = await engine.allDownloads
        RunReporter.summary(all, failedIDs: failed, interrupted: interrupted)
        if interrupted { throw ExitStatus.interrupted }
        if !failed.isEmpty { throw ExitStatus.downloadFailed }
    }
}
