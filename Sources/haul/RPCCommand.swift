import ArgumentParser
import FoundationEssentials
import HaulCore
import HaulStore

/// `haul rpc [on|off]`: the aria2-compatible JSON-RPC endpoint that browser extensions, AriaNg
/// and aria2p speak.
struct RPCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rpc",
        abstract: "Show, turn on or turn off the aria2-compatible JSON-RPC endpoint (saved).",
        discussion:
            "While it is on, the haul that owns the downloads (the TUI, haul run or haul daemon) answers aria2's "
            + "JSON-RPC on http://HOST:PORT/jsonrpc and its WebSocket, so browser extensions, AriaNg and aria2p "
            + "can add and control downloads: give them the port and the secret shown here. Downloads added that "
            + "way go to the download directory, or a directory allowed with --allow-dir."
    )

    @Argument(help: ArgumentHelp("on or off; omit to show the endpoint.", valueName: "on|off"))
    var toggle: String?

    @Option(name: .long, help: ArgumentHelp("The port to listen on (default 6800, aria2's).", valueName: "port"))
    var port: Int?

    /// `--secret`, the same option as the UI's for `--connect`: the parser hands an option the root
    /// command declares to the root, unless the subcommand declares the very same group.
    @OptionGroup var connectOptions: ConnectOptions
    var secret: String? { connectOptions.secret }

    @Option(
        name: .long,
        help: ArgumentHelp("The address to listen on (default 127.0.0.1, this machine only).", valueName: "address"))
    var listen: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A directory calls may also put files in (besides the download directory); may be repeated.",
            valueName: "path"))
    var allowDir: [String] = []

    @OptionGroup var stateOptions: StateOptions

    func validate() throws {
        if connectOptions.connect != nil {
            throw ValidationError("'rpc' sets this machine's endpoint; --connect does not go with it")
        }
        if let toggle, toggle != "on" && toggle != "off" {
            throw ValidationError("say 'haul rpc on' or 'haul rpc off'")
        }
        let changes = port != nil || secret != nil || listen != nil || !allowDir.isEmpty
        if changes && toggle != "on" {
            throw ValidationError("--port, --secret, --listen and --allow-dir go with 'rpc on'")
        }
        if let port, !(1...65535).contains(port) { throw ValidationError("a port is a number from 1 to 65535") }
        if let secret, secret.isEmpty || secret.contains(where: { $0.isWhitespace }) {
            throw ValidationError("a secret is one word with no spaces")
        }
    }

    func run() async throws {
        let directories = try allowedDirectories()
        let engine = try await EngineAccess.session(stateOptions)
        do {
            let snapshot = try await engine.snapshot()
            switch toggle {
            case "on":
                let old = snapshot.rpc
                var settings = old ?? RPCSettings(secret: RPCSettings.makeSecret())
                if let port { settings.port = port }
                if let listen { settings.listen = listen }
                if let secret { settings.secret = secret }
                for directory in directories where !settings.allowedDirectories.contains(directory) {
                    settings.allowedDirectories.append(directory)
                }
                try await engine.perform(.setRPC(settings))
                try await engine.save()
            case "off":
                try await engine.perform(.setRPC(nil))
                try await engine.save()
            default:
                break
            }
            try await show(engine)
            if toggle != nil, !ServiceContext(stateOptions).installedUnits.isEmpty {
                Console.out("the systemd units listen on the old port: run haul service install again")
            }
        } catch {
            throw Console.failure(error)
        }
    }

    /// `--allow-dir` values, absolute; each must be an existing directory.
    private func allowedDirectories() throws -> [String] {
        try allowDir.map { given in
            let path = StatePaths.absolute(given, environment: stateOptions.environment)
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory else {
                throw InputError("\(TerminalText.sanitize(path)) is not a directory").reported()
            }
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
    }

    /// What the endpoint is and whether it is served now; a change just made is waited for
    /// briefly, as the owner starts or stops its server.
    private func show(_ engine: any EngineSession) async throws {
        var snapshot = try await engine.snapshot()
        if let settings = snapshot.rpc, toggle == "on" {
            let wanted = RPCHost.address(settings.listen, settings.port)
            for _ in 0..<40 where snapshot.network.rpcAddress != wanted {
                try await Task.sleep(for: .milliseconds(50))
                snapshot = try await engine.snapshot()
            }
        }
        guard let settings = snapshot.rpc else {
            return Console.out(
                "rpc: off (haul rpc on serves aria2's JSON-RPC for browser extensions, AriaNg and aria2p)")
        }
        let place = RPCHost.address(settings.listen, settings.port)
        let host = settings.listen == "0.0.0.0" || settings.listen == "::" ? "HOST" : place
        var lines = ["rpc: on, \(place)"]
        if snapshot.network.rpcAddress == place {
            lines.append("served now by the haul that owns the downloads")
        } else {
            lines.append("not served now: it is served while haul, haul run or haul daemon runs")
        }
        lines.append("url: http://\(host)/jsonrpc   websocket: ws://\(host)/jsonrpc")
        lines.append("secret: \(TerminalText.sanitize(settings.secret))")
        let allowed = settings.allowedDirectories.map { TerminalText.sanitize($0) }.joined(separator: ", ")
        if !allowed.isEmpty { lines.append("also allowed: \(allowed)") }
        lines.append(
            "AriaNg: set the RPC address to http://\(host)/jsonrpc and the secret token above; "
                + "aria2p: aria2p --port \(settings.port) --secret SECRET")
        Console.out(lines.joined(separator: "\n"))
    }
}
