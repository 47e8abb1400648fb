import HaulCore
import HaulRemote

/// The systemd user units `haul service install` writes: `haul.socket` (the control socket),
/// `haul-rpc.socket` (the RPC port, while `haul rpc` is on) and `haul.service`, which a
/// connection to either starts and which starts at login (at boot with lingering) to resume
/// what was running. One socket unit per socket, so each descriptor has its own name.
struct ServiceUnits: Equatable {
    static let serviceName = "haul.service"
    static let socketName = "haul.socket"
    static let rpcSocketName = "haul-rpc.socket"
    static let allNames = [socketName, rpcSocketName, serviceName]

    /// The installed haul the service runs.
    var binary: String
    /// The state file, always named: the service's environment may lack the variables that
    /// chose it in the user's shell.
    var statePath: String
    /// The control socket's name inside the runtime directory (`haul/<hash>.sock`).
    var socketInRuntimeDirectory: String
    /// Where the RPC endpoint listens, while it is on.
    var rpc: (listen: String, port: Int)?
    /// The units a package installs for every user (`/usr/lib/systemd/user`): the state file is
    /// the usual one below the home folder of whoever enables them (`%h`), and the service does
    /// not pull the RPC socket in (a user enables `haul-rpc.socket` with `haul rpc on`).
    var forEveryUser = false

    /// The units Debian's package ships: `binary` installed by it, the RPC socket on aria2's port.
    static func packaged(binary: String) -> ServiceUnits {
        var units = ServiceUnits(
            binary: binary, statePath: "%h" + SocketLocation.defaultStateBelowHome,
            socketInRuntimeDirectory: "haul/" + SocketLocation.defaultName,
            rpc: (RPCSettings.loopback, RPCSettings.defaultPort))
        units.forEveryUser = true
        return units
    }

    static func == (a: ServiceUnits, b: ServiceUnits) -> Bool {
        a.binary == b.binary && a.statePath == b.statePath && a.socketInRuntimeDirectory == b.socketInRuntimeDirectory
            && a.rpc?.listen == b.rpc?.listen && a.rpc?.port == b.rpc?.port && a.forEveryUser == b.forEveryUser
    }

    /// Each unit's file name and text.
    var files: [(name: String, text: String)] {
        var files = [(Self.socketName, socket), (Self.serviceName, service)]
        if let rpcSocket { files.insert((Self.rpcSocketName, rpcSocket), at: 1) }
        return files
    }

    private var header: String {
        forEveryUser
            ? "# Installed with haul's package; haul service install writes units that take their place.\n"
            : "# Written by haul service install; haul service uninstall removes it.\n"
    }

    var socket: String {
        header + """
            [Unit]
            Description=haul download manager: the socket haul's commands and TUI use
            Documentation=man:haul(1)

            [Socket]
            ListenStream=%t/\(Self.escaped(socketInRuntimeDirectory))
            SocketMode=0600
            DirectoryMode=0700
            FileDescriptorName=control
            Service=\(Self.serviceName)

            [Install]
            WantedBy=sockets.target

            """
    }

    var rpcSocket: String? {
        guard let rpc else { return nil }
        return header + """
            [Unit]
            Description=haul download manager: the aria2-compatible RPC port
            Documentation=man:haul(1)

            [Socket]
            ListenStream=\(Self.listenAddress(rpc.listen, rpc.port))
            FileDescriptorName=rpc
            Service=\(Self.serviceName)

            [Install]
            WantedBy=sockets.target

            """
    }

    var service: String {
        let words = [binary, "daemon", "--exit-when-idle", "--state"].map(Self.quoted)
        // The packaged unit's `%h` is a specifier systemd fills in, not text to escape.
        let command = words + [forEveryUser ? statePath : Self.quoted(statePath)]
        let sockets = [Self.socketName] + (rpc == nil || forEveryUser ? [] : [Self.rpcSocketName])
        return header + """
            [Unit]
            Description=haul download manager
            Documentation=man:haul(1)
            Requires=\(Self.socketName)
            After=\(sockets.joined(separator: " "))

            [Service]
            Type=notify
            NotifyAccess=main
            ExecStart=\(command.joined(separator: " "))
            Sockets=\(sockets.joined(separator: " "))
            # 3: another haul owns the downloads; starting again would not change that.
            Restart=on-failure
            RestartPreventExitStatus=3
            TimeoutStopSec=30
            NoNewPrivileges=yes
            LockPersonality=yes
            RestrictRealtime=yes
            RestrictSUIDSGID=yes
            SystemCallArchitectures=native

            [Install]
            WantedBy=default.target

            """
    }

    /// `ListenStream=` takes numeric addresses only; a name means this machine.
    static func listenAddress(_ host: String, _ port: Int) -> String {
        switch host {
        case "localhost", "": return "127.0.0.1:\(port)"
        case let address where address.contains(":"): return "[\(address)]:\(port)"
        default: return "\(host):\(port)"
        }
    }

    /// A word of a unit file's command line: `%` doubled, and quoted (with `\` and `"` escaped)
    /// when it holds anything systemd would split or read specially.
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:=,@%".contains($0) }
        guard !plain else { return escaped(word) }
        let inner = escaped(word).replacing("\\", with: "\\\\")
            .replacing("\"", with: "\\\"")
        return "\"" + inner + "\""
    }

    /// `%` starts a specifier in unit files; a literal one is `%%`.
    static func escaped(_ text: String) -> String {
        text.replacing("%", with: "%%")
    }
}
