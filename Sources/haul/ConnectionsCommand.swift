import ArgumentParser
import HaulCore
import HaulStore

struct ConnectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connections",
        abstract: "Show or set the most connections per download (1-32; saved; default 8).",
        discussion:
            "A large file from a server that serves byte ranges is fetched over several connections, added while "
            + "they make it faster. With IDs, sets it for those downloads only (also while they run); without, "
            + "sets the default for downloads added without -x. At most 16 connections go to one server. "
            + "For a torrent among the IDs, N is the most peers it connects to (2 or more; 0 for no limit)."
    )

    @Argument(help: ArgumentHelp("The most connections; omit to show the default.", valueName: "n"))
    var count: Int?

    @Argument(help: ArgumentHelp("Downloads to set it for (ids or unique prefixes).", valueName: "id"))
    var ids: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("For downloads from hosts matching this glob (see haul hosts).", valueName: "pattern"))
    var `for`: String?

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func validate() throws {
        // With IDs the engine checks the number for each kind: a torrent's peers may be more.
        guard let count else { return }
        if ids.isEmpty ? !StateDocument.Settings.connectionRange.contains(count) : count < 0 {
            throw ValidationError("connections must be between 1 and 32")
        }
    }

    func run() async throws {
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        let line: String
        if let pattern = self.for {
            guard let count, ids.isEmpty else { throw InputError("say 'haul connections N --for PATTERN'").reported() }
            do {
                try await HostsCommand.change(pattern, on: engine) { $0.connections = count }
            } catch {
                throw Console.failure(error)
            }
            return Console.out("connections for \(TerminalText.sanitize(pattern.lowercased())): \(count)")
        }
        do {
            var (chosenCount, torrents) = (0, 0)
            if let count {
                if ids.isEmpty {
                    try await engine.perform(.setConnections(nil, count))
                } else {
                    let all = try await engine.snapshot().downloads.all
                    let chosen = try DownloadSelector.resolve(ids, among: all.map(\.id))
                    let picked = Set(chosen)
                    torrents = all.count { picked.contains($0.id) && $0.isTorrent }
                    chosenCount = picked.count
                    try await engine.perform(.setConnections(.ids(chosen), count))
                }
                try await engine.save()
            }
            let current = try await engine.snapshot().connections ?? StateDocument.Settings.defaultConnections
            if ids.isEmpty || count == nil {
                line = "connections per download: \(current)"
            } else {
                let peers = "\(PeerLimit.describe(PeerLimit.from(count!))) for \(torrents) torrent(s)"
                let set = "connections: \(count!) for \(chosenCount - torrents) download(s)"
                line = torrents == 0 ? set : chosenCount == torrents ? peers : set + "; " + peers
            }
        } catch {
            throw Console.failure(error)
        }
        Console.out(line)
    }
}
