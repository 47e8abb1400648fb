import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where the socket of the haul process owning a state file lives:
/// `$XDG_RUNTIME_DIR/haul/<hash>.sock`, or `<state directory>/run/<hash>.sock` without a
/// runtime directory. The hash of the state path keeps two state files apart; the usual state
/// file (`~/.local/state/haul/state.json`) has the fixed name `default.sock`, which the units
/// the Debian package ships can name without knowing the user.
public struct SocketLocation: Sendable, Equatable {
    public let directory: String
    public let path: String

    /// The socket's name for the usual state file, inside the runtime directory.
    public static let defaultName = "default.sock"
    /// The usual state file, below the home folder.
    public static let defaultStateBelowHome = "/.local/state/haul/state.json"

    public init(statePath: String, environment: [String: String]) {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let stateDirectory = PathText.directory(of: statePath)
        directory =
            runtime.map { ($0.hasSuffix("/") ? String($0.dropLast()) : $0) + "/haul" } ?? stateDirectory + "/run"
        let usual = environment["HOME"].map { PathText.joined($0, String(Self.defaultStateBelowHome.dropFirst())) }
        path = directory + "/" + (statePath == usual ? Self.defaultName : Self.hash(statePath) + ".sock")
    }

    /// 64-bit FNV-1a as 16 hex digits: stable across runs and builds (Swift's `Hasher` is not).
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `sun_path` holds 108 bytes including the terminating zero.
    public var fitsSocketAddress: Bool { path.utf8.count < 108 }
}

/// Why a socket is not trusted: anything another user could have made or could reach.
public struct UntrustedSocket: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The permission checks on both ends: the directory must be a real directory owned by this
/// user and closed to everyone else (0700), the socket a socket owned by this user. The
/// socket's own mode is not checked: no one else can reach it through a 0700 directory, and a
/// service manager's sockets (`systemd-socket-activate` makes them 0644) must be usable. haul's
/// own sockets are 0600 all the same, and the server checks every peer's uid.
public enum SocketTrust {
    /// The server's side: creates the directory 0700, or tightens one this user owns.
    public static func prepareDirectory(_ directory: String) throws(UntrustedSocket) {
        if mkdir(directory, 0o700) == 0 { return }
        guard errno == EEXIST else {
            throw UntrustedSocket(
                description:
                    "cannot create the socket directory \(TerminalText.sanitize(directory)): "
                    + "\(String(cString: strerror(errno)))"
            )
        }
        let info = try status(directory)
        try requireOwnedDirectory(directory, info)
        if info.st_mode & 0o077 != 0 { chmod(directory, 0o700) }
    }

    /// The client's side: refuses a directory or socket that is not private to this user.
    public static func verify(_ location: SocketLocation) throws(UntrustedSocket) {
        let info = try status(location.directory)
        try requireOwnedDirectory(location.directory, info)
        if info.st_mode & 0o077 != 0 {
            throw UntrustedSocket(
                description:
                    "refusing the socket directory \(TerminalText.sanitize(location.directory)): other users can "
                    + "reach it (mode \(octal(info.st_mode))); it must be 0700"
            )
        }
        let socketInfo = try status(location.path)
        guard socketInfo.st_mode & S_IFMT == S_IFSOCK, socketInfo.st_uid == geteuid() else {
            throw UntrustedSocket(
                description: "refusing \(TerminalText.sanitize(location.path)): not a socket owned by you")
        }
    }

    private static func status(_ path: String) throws(UntrustedSocket) -> stat {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw UntrustedSocket(
                description: "cannot inspect \(TerminalText.sanitize(path)): \(String(cString: strerror(errno)))")
        }
        return info
    }

    private static func requireOwnedDirectory(_ path: String, _ info: stat) throws(UntrustedSocket) {
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
            throw UntrustedSocket(
                description:
                    "refusing the socket directory \(TerminalText.sanitize(path)): it is not a directory owned by you")
        }
    }

    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode & 0o777, radix: 8)
    }
}
