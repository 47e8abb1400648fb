import ArgumentParser
import HaulCore

@main
struct Haul: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haul",
        abstract:
            "A terminal download manager: resumable, crash-proof, keyboard-driven. With no command, opens the "
            + "full-screen UI; 'haul URL…' downloads into the current directory, as wget does, and takes add's "
            + "options (-o, -d, -i, -x…) and run's -j.",
        discussion: """
            Downloads are kept in a state file and resume where they stopped, even after a crash.
            Exit codes: 0 success, 1 a download failed, 2 bad input, 3 the state file is busy or \
            unreadable, 64 bad command-line usage, 130 interrupted.
            Environment: SSL_CERT_FILE, a PEM file of the certificates https servers are verified \
            against instead of the system's; http_proxy, https_proxy, all_proxy, no_proxy.
            """,
        version: "0.1.0",
        subcommands: [
            AddCommand.self, ListCommand.self, RunCommand.self,
            PauseCommand.self, ResumeCommand.self, CancelCommand.self, RemoveCommand.self, RetryCommand.self,
            MeteredCommand.self, LimitCommand.self, MoveCommand.self, ConnectionsCommand.self, CookiesCommand.self,
            VerifyCommand.self,
            RefreshCommand.self, RPCCommand.self, DaemonCommand.self, ServiceCommand.self, HooksCommand.self,
            RulesCommand.self, ProxyCommand.self, HostsCommand.self, RemoteCommand.self, TorrentsCommand.self,
            FilesCommand.self,
            DemoCommand.self, GetCommand.self,
        ]
    )

    @OptionGroup var hookOptions: HookOptions
    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions
    @Flag(
        name: .long,
        help: "Leave the mouse to the terminal: no clicks or wheel in the UI (as HAUL_NO_MOUSE=1 does).")
    var noMouse = false

    /// No subcommand: the full-screen UI. (`haul URL…` is ``GetCommand``, see ``main()``.)
    func run() async throws {
        try await TUIApp.run(stateOptions, remote: connectOptions, hooks: hookOptions, mouse: !noMouse)
    }

    static func main() async {
        ProcessClock.start = ProcessClock.seconds()
        MallocArenas.useOne()
        Signals.unblockAll()
        do {
            let words = AttachedValues.separated(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot(GetCommand.arguments(words))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
