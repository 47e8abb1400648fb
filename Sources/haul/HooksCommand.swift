import ArgumentParser
import HaulCore

/// `haul hooks`: shows, sets or clears the saved hooks, which the haul that owns the downloads
/// runs (the TUI, `haul run`, `haul daemon` or the service).
struct HooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Show or set the commands run when downloads finish or fail and when the queue drains (saved).",
        discussion: """
            Hooks run without a shell, one at a time per event, with their output in the log (the daemon's log \
            file or the journal). Besides their arguments they get HAUL_EVENT, HAUL_ID, HAUL_GID, HAUL_PATH, \
            HAUL_URL and, for errors, HAUL_REASON. An empty command removes that hook; --clear removes all. \
            Hooks cannot be set over RPC.
            """
    )

    @OptionGroup var hookOptions: HookOptions

    @Flag(name: .long, help: "Remove every saved hook.")
    var clear = false

    @OptionGroup var stateOptions: StateOptions

    func validate() throws {
        if clear, !hookOptions.isEmpty { throw ValidationError("--clear goes alone") }
    }

    func run() async throws {
        let given = try hookOptions.hooks()
        let engine = try await EngineAccess.session(stateOptions)
        do {
            if clear {
                try await engine.perform(.setHooks(nil))
                try await engine.save()
            } else if let flags = given.settings {
                // Given here, an empty command removes that hook.
                var saved = try await engine.snapshot().hooks ?? HookSettings()
                if hookOptions.onComplete != nil { saved.onComplete = flags.onComplete }
                if hookOptions.onError != nil { saved.onError = flags.onError }
                if hookOptions.onQueueEmpty != nil { saved.onQueueEmpty = flags.onQueueEmpty }
                if given.argumentsGiven { saved.arguments = flags.arguments }
                if given.timeLimitGiven { saved.timeLimit = flags.timeLimit }
                try await engine.perform(.setHooks(saved == HookSettings() ? nil : saved))
                try await engine.save()
            }
            show(try await engine.snapshot().hooks)
        } catch {
            throw Console.failure(error)
        }
    }

    private func show(_ hooks: HookSettings?) {
        let hooks = hooks ?? HookSettings()
        for event in HookSettings.Event.allCases {
            let command = hooks.command(for: event).map { CommandWords.join($0) } ?? "none"
            Console.out("\(event.rawValue): \(TerminalText.sanitize(command))")
        }
        Console.out("hook-args: \(hooks.arguments.rawValue)")
        Console.out("hook-time-limit: \(hooks.timeLimit) s")
    }
}
