import ArgumentParser
import FoundationEssentials
import HaulCore
import HaulRPCClient
import HaulStore

/// `haul remote`: engines on other machines, saved by name for `--connect NAME`.
struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Show the saved remotes: engines on other machines for --connect NAME.",
        discussion: """
            A remote is a haul serving RPC ('haul rpc on') or an aria2c started with --enable-rpc, reached by \
            its JSON-RPC address. They are kept in $XDG_CONFIG_HOME/haul/remotes.json, readable only by you.
            """,
        subcommands: [RemoteListCommand.self, RemoteAddCommand.self, RemoteRemoveCommand.self],
        defaultSubcommand: RemoteListCommand.self
    )

    static func path() -> String { StatePaths.remotes(environment: ProcessInfo.processInfo.environment) }

    static func read() throws -> SavedRemotes {
        do { return try SavedRemotesFile.read(path()) } catch { throw error.reported() }
    }

    static func write(_ remotes: SavedRemotes) throws {
        do { try SavedRemotesFile.write(remotes, to: path()) } catch { throw error.reported() }
    }
}

struct RemoteListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the saved remotes.")

    func run() throws {
        let saved = try RemoteCommand.read()
        guard !saved.remotes.isEmpty else {
            return Console.out("no saved remotes (haul remote add NAME ws://host:6800/jsonrpc --secret S)")
        }
        for remote in saved.remotes {
            let secret = remote.secret == nil ? "no secret" : "secret saved"
            Console.out(
                "\(TerminalText.sanitize(remote.name))  \(TerminalText.sanitize(Redaction.url(remote.url)))  \(secret)")
        }
    }
}

struct RemoteAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Save a remote (or change the one of that name).")

    @Argument(help: ArgumentHelp("What --connect calls it.", valueName: "name"))
    var name: String

    @Argument(help: ArgumentHelp("Its JSON-RPC address, e.g. ws://nas:6800/jsonrpc.", valueName: "url"))
    var url: String

    /// `--secret`: the root command's group, which the parser would otherwise hand it to.
    @OptionGroup var connectOptions: ConnectOptions
    var secret: String? { connectOptions.secret }

    func validate() throws {
        if connectOptions.connect != nil { throw ValidationError("'remote add' saves an address; give it as URL") }
    }

    func run() throws {
        if let problem = SavedRemotes.problem(withName: name) { throw InputError(problem).reported() }
        let address: RPCAddress
        do { address = try RPCAddress(url) } catch { throw error.reported() }
        var saved = try RemoteCommand.read()
        saved.save(SavedRemotes.Remote(name: name, url: url, secret: secret))
        try RemoteCommand.write(saved)
        Console.out("saved \(TerminalText.sanitize(name)) → \(address.callURL); 'haul --connect \(name)' opens it")
        if let warning = address.cleartextWarning(hasSecret: secret != nil) { Console.warn(warning) }
    }
}

struct RemoteRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Forget a saved remote.")

    @Argument(help: ArgumentHelp("The remote's name.", valueName: "name"))
    var name: String

    func run() throws {
        var saved = try RemoteCommand.read()
        guard saved.remove(name) else {
            throw InputError("no saved remote is called \(TerminalText.sanitize(name))").reported()
        }
        try RemoteCommand.write(saved)
        Console.out("forgot \(TerminalText.sanitize(name))")
    }
}
