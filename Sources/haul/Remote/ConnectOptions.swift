import ArgumentParser
import FoundationEssentials
import HaulCore
import HaulRPCClient
import HaulStore

/// `--connect` and `--secret`: the commands that show and steer downloads can do so on an engine
/// on another machine (a haul serving RPC, or aria2c) instead of this machine's haul.
struct ConnectOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "An engine on another machine: its aria2 JSON-RPC address (ws://nas:6800/jsonrpc, http://…) or the "
                + "name of a saved remote ('haul remote add').",
            valueName: "url|name"))
    var connect: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The RPC secret: of --connect's engine (default: the saved remote's); with 'rpc on', the one this "
                + "machine's endpoint asks for (default: a new random one, kept).",
            valueName: "secret"))
    var secret: String?

    /// The engine `--connect` names with its secret; nil without `--connect`.
    func target(environment: [String: String]) throws(InputError) -> RPCSession.Target? {
        guard let connect else {
            if secret != nil { throw InputError("--secret goes with --connect") }
            return nil
        }
        let certificates = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if SavedRemotes.problem(withName: connect) == nil {
            let saved = try SavedRemotesFile.read(StatePaths.remotes(environment: environment))
            guard let remote = saved[connect] else {
                throw InputError(
                    "no saved remote is called \(TerminalText.sanitize(connect)) ('haul remote ls' lists them; a URL "
                        + "such as ws://host:6800/jsonrpc works too)")
            }
            return RPCSession.Target(
                address: try RPCAddress(remote.url), secret: secret ?? remote.secret, place: remote.name,
                trustedCertificates: certificates)
        }
        return RPCSession.Target(address: try RPCAddress(connect), secret: secret, trustedCertificates: certificates)
    }
}
