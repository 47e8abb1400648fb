import ArgumentParser
import FoundationEssentials
import HaulCore
import HaulRemote
import HaulStore

/// `haul service install|uninstall|status`: haul as a systemd user service, started by its
/// sockets when a command, the TUI or an RPC client connects, and at login (at boot with
/// lingering) to resume what was running.
struct ServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Run haul as a systemd user service, started on demand by its sockets.",
        subcommands: [
            ServiceInstallCommand.self, ServiceUninstallCommand.self, ServiceStatusCommand.self,
            ServicePackageUnitsCommand.self,
        ]
    )
}

/// What the three service commands share: where the units go and how to reach the manager.
struct ServiceContext {
    let options: StateOptions
    let manager: UserManager

    init(_ options: StateOptions) {
        self.options = options
        manager = UserManager(environment: options.environment)
    }

    var unitDirectory: String { StatePaths.configHome(options.environment) + "/systemd/user" }

    func path(_ unit: String) -> String { unitDirectory + "/" + unit }

    var installedUnits: [String] {
        ServiceUnits.allNames.filter { FileManager.default.fileExists(atPath: path($0)) }
    }

    /// Says there is no user manager and stops with exit status 1, having changed nothing.
    func requireManager() throws {
        if let why = manager.unavailable() {
            Console.error("\(why); nothing was changed")
            throw ExitCode(1)
        }
    }

    /// Runs `systemctl --user ARGUMENTS`; a failure is printed and stops the command.
    func systemctl(_ arguments: [String]) throws {
        let outcome = manager.systemctl(arguments)
        guard outcome.status == 0 else {
            Console.error(
                "systemctl --user \(arguments.joined(separator: " ")) failed: \(TerminalText.sanitize(outcome.output))")
            throw ExitCode(1)
        }
    }
}

struct ServiceInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Write and enable haul.socket and haul.service (and haul-rpc.socket while RPC is on).",
        discussion: """
            The units go to $XDG_CONFIG_HOME/systemd/user/. The service runs the haul that ran this \
            command, so install haul first (make install). Run it again after 'haul rpc on|off' or \
            moving haul. 'loginctl enable-linger' keeps the service after you log out and starts it at boot.
            """
    )

    @Flag(name: .long, help: "Start listening now, not only from the next login.")
    var now = false

    @OptionGroup var stateOptions: StateOptions

    func run() throws {
        let context = ServiceContext(stateOptions)
        let binary = try installedBinary()
        try context.requireManager()
        let units = try units(binary: binary)
        do {
            try FileManager.default.createDirectory(atPath: context.unitDirectory, withIntermediateDirectories: true)
            for unit in ServiceUnits.allNames where !units.files.contains(where: { $0.name == unit }) {
                try? FileManager.default.removeItem(atPath: context.path(unit))
            }
            for file in units.files {
                try AtomicFile.write(Data(file.text.utf8), to: context.path(file.name), mode: 0o644)
            }
        } catch {
            Console.error("cannot write the units in \(context.unitDirectory): \(error)")
            throw ExitCode(1)
        }
        try context.systemctl(["daemon-reload"])
        let sockets = units.files.map(\.name).filter { $0.hasSuffix(".socket") }
        let owner = StateLock.currentHolder(statePath: stateOptions.statePath)
        let startNow = now && owner == nil
        try context.systemctl(["enable"] + (startNow ? ["--now"] : []) + sockets)
        try context.systemctl(["enable", ServiceUnits.serviceName])
        Console.out("installed \(units.files.map(\.name).joined(separator: ", ")) in \(context.unitDirectory)")
        if let owner, now {
            Console.out(
                "not started now: haul (pid \(owner)) owns the downloads; stop it (haul daemon --stop, or quit the "
                    + "TUI), then: systemctl --user start \(sockets.joined(separator: " "))")
        } else if startNow {
            Console.out("listening now; the first haul command, TUI or RPC client starts it")
        } else {
            Console.out("enabled: it listens from your next login (haul service install --now starts it now)")
        }
        if !context.manager.isLingering() {
            let user = stateOptions.environment["USER"] ?? "$USER"
            Console.out("to keep it running after you log out and start it at boot: loginctl enable-linger \(user)")
        }
    }

    /// The haul running this command, refused when it is a build's: the build folder is
    /// rebuilt, cleaned and moved, and the service would break with it.
    private func installedBinary() throws -> String {
        let binary =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        if binary.contains("/.build/") {
            Console.error(
                "this haul is in a build folder (\(TerminalText.sanitize(binary))); install it first (make install), "
                    + "then run the installed haul service install")
            throw ExitStatus.badInput
        }
        return binary
    }

    private func units(binary: String) throws -> ServiceUnits {
        let statePath = stateOptions.statePath
        let rpc: RPCSettings?
        do {
            rpc = try StateFile(path: statePath).loadReadOnly().settings.rpc
        } catch {
            Console.error(String(describing: error))
            throw ExitStatus.stateUnavailable
        }
        let location = stateOptions.socketLocation
        guard let runtime = stateOptions.environment["XDG_RUNTIME_DIR"], location.path.hasPrefix(runtime + "/") else {
            Console.error("XDG_RUNTIME_DIR is not set; a systemd user session sets it (is this a login session?)")
            throw ExitCode(1)
        }
        return ServiceUnits(
            binary: binary, statePath: statePath,
            socketInRuntimeDirectory: String(location.path.dropFirst(runtime.count + 1)),
            rpc: rpc.map { ($0.listen, $0.port) })
    }
}

struct ServiceUninstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall", abstract: "Stop, disable and remove haul's units (downloads are kept).")

    @OptionGroup var stateOptions: StateOptions

    func run() throws {
        let context = ServiceContext(stateOptions)
        let installed = context.installedUnits
        guard !installed.isEmpty else {
            return Console.out("no haul units are installed in \(context.unitDirectory)")
        }
        try context.requireManager()
        // Sockets first, so no connection starts the service again while it stops.
        let order = installed.sorted { $0.hasSuffix(".socket") && !$1.hasSuffix(".socket") }
        try context.systemctl(["disable", "--now"] + order)
        for unit in installed { try? FileManager.default.removeItem(atPath: context.path(unit)) }
        try context.systemctl(["daemon-reload"])
        Console.out("removed \(installed.joined(separator: ", ")); the downloads stay and resume when haul runs again")
    }
}

struct ServiceStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Say what is installed, enabled, running and lingering.")

    @OptionGroup var stateOptions: StateOptions

    func run() throws {
        let context = ServiceContext(stateOptions)
        let installed = context.installedUnits
        Console.out(
            "installed: "
                + (installed.isEmpty
                    ? "no (haul service install)"
                    : installed.joined(separator: ", ")
                        + " in \(context.unitDirectory)"))
        if let why = context.manager.unavailable() {
            return Console.out("systemd: \(why)")
        }
        guard !installed.isEmpty else { return }
        let enabled = context.manager.systemctl(["is-enabled", ServiceUnits.socketName]).output
        let listening = context.manager.systemctl(["is-active", ServiceUnits.socketName]).output
        let running = context.manager.systemctl(["is-active", ServiceUnits.serviceName]).output
        Console.out("enabled: \(TerminalText.sanitize(enabled.isEmpty ? "unknown" : enabled))")
        Console.out("socket: \(TerminalText.sanitize(listening.isEmpty ? "unknown" : listening))")
        Console.out("service: \(TerminalText.sanitize(running.isEmpty ? "unknown" : running))")
        Console.out(
            "lingering: "
                + (context.manager.isLingering()
                    ? "yes (runs after logout, starts at boot)" : "no (loginctl enable-linger keeps it after logout)"))
    }
}
