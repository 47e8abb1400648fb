import ArgumentParser
import HaulCore
import HaulStore

/// `haul torrents`: shows and sets how haul takes part in BitTorrent swarms (saved in the state).
struct TorrentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torrents",
        abstract: "Show or set how torrents find peers and how long they seed (saved).",
        discussion:
            "As in aria2, trackers, DHT and peer exchange are on and local peer discovery and port mapping "
            + "(UPnP, NAT-PMP) are off. A finished torrent seeds until its upload reaches --seed-ratio times its "
            + "size (default 1.0) or --seed-time minutes pass, whichever comes first, while a daemon or the UI "
            + "runs; either at 0 seeds not at all, as in aria2. With IDs, --seed-ratio and --seed-time are those "
            + "torrents' own (as 'haul add --seed-ratio' gives), and one seeding now follows them at once. On a "
            + "metered network torrents do not seed and DHT is off."
    )

    @Option(name: .long, help: ArgumentHelp("The distributed hash table.", valueName: "on|off"))
    var dht: String?
    @Option(name: .long, help: ArgumentHelp("Peer exchange.", valueName: "on|off"))
    var pex: String?
    @Option(name: .long, help: ArgumentHelp("Local peer discovery (multicast).", valueName: "on|off"))
    var lsd: String?
    @Option(name: .customLong("port-mapping"), help: ArgumentHelp("UPnP and NAT-PMP.", valueName: "on|off"))
    var portMapping: String?
    @Option(name: .long, help: ArgumentHelp("The port peers connect to (default 6881).", valueName: "n"))
    var port: Int?
    @Option(
        name: .long, help: ArgumentHelp("The address to listen on; 'any' for every address.", valueName: "address"))
    var interface: String?
    @Option(name: .customLong("seed-ratio"), help: ArgumentHelp("Stop seeding at this ratio.", valueName: "r"))
    var seedRatio: Double?
    @Option(
        name: .customLong("seed-time"),
        help: ArgumentHelp(
            "Stop seeding after this many minutes; 0 seeds not at all; none: no time limit.",
            valueName: "min"))
    var seedTime: String?
    @Option(
        name: .customLong("upload-limit"),
        help: ArgumentHelp("Upload over all torrents, e.g. 500K; 0: no limit.", valueName: "rate"))
    var uploadLimit: String?

    @Argument(help: ArgumentHelp("Torrents to give their own seed ratio or time.", valueName: "id"))
    var ids: [String] = []

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func validate() throws {
        guard !ids.isEmpty else { return }
        if [dht, pex, lsd, portMapping, interface, uploadLimit].contains(where: { $0 != nil }) || port != nil {
            throw ValidationError("with IDs, only --seed-ratio and --seed-time are a torrent's own")
        }
        if seedRatio == nil && seedTime == nil { throw ValidationError("give --seed-ratio or --seed-time for them") }
        if seedTime == "none" {
            throw ValidationError("a torrent's own --seed-time is a number of minutes (0 seeds it not at all)")
        }
    }

    func run() async throws {
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        if !ids.isEmpty { return try await setGoal(on: engine) }
        do {
            let current = try await engine.snapshot().torrents ?? TorrentSettings()
            let changed = try changes(to: current)
            if changed != current {
                try await engine.perform(.setTorrentSettings(changed))
                try await engine.save()
            }
            Console.out(Self.describe(changed))
        } catch {
            throw Console.failure(error)
        }
    }

    /// `--seed-ratio` and `--seed-time` for the torrents named.
    private func setGoal(on engine: any EngineSession) async throws {
        do {
            let goal = SeedGoal(
                ratio: try checkedSeedRatio(),
                minutes: try seedTime.map { text throws(InputError) in try SeedGoal.minutes(parsing: text) })
            let all = try await engine.snapshot().downloads.all
            let chosen = try DownloadSelector.resolve(ids, among: all.map(\.id))
            let torrents = try await engine.perform(.setSeedGoal(.ids(chosen), goal))
            try await engine.save()
            var parts: [String] = []
            if let ratio = goal.ratio {
                parts.append(ratio == 0 ? "no seeding" : "seed ratio \(Formatting.ratio(ratio))")
            }
            if let minutes = goal.minutes { parts.append(minutes == 0 ? "no seeding" : "seed time \(minutes) min") }
            let others = chosen.count - torrents.count
            let skipped = others == 0 ? "" : "; \(others) not a torrent, left as is"
            Console.out("\(parts.joined(separator: ", ")) for \(torrents.count) torrent(s)\(skipped)")
        } catch {
            throw Console.failure(error)
        }
    }

    /// `current` with the options given applied, or the sentence saying which value is wrong.
    func changes(to current: TorrentSettings) throws(InputError) -> TorrentSettings {
        var settings = current
        func toggle(_ value: String?, _ name: String) throws(InputError) -> Bool? {
            guard let value else { return nil }
            switch value.lowercased() {
            case "on", "true", "yes": return true
            case "off", "false", "no": return false
            default: throw InputError("--\(name) is on or off, not '\(TerminalText.sanitize(value))'")
            }
        }
        if let v = try toggle(dht, "dht") { settings.dht = v }
        if let v = try toggle(pex, "pex") { settings.pex = v }
        if let v = try toggle(lsd, "lsd") { settings.lsd = v }
        if let v = try toggle(portMapping, "port-mapping") { settings.portMapping = v }
        if let port {
            guard (0...65535).contains(port) else {
                throw InputError("--port must be between 0 (any free port) and 65535")
            }
            settings.port = port
        }
        if let interface {
            settings.interface = interface == "any" || interface.isEmpty ? nil : interface
        }
        if let seedRatio = try checkedSeedRatio() { settings.seedRatio = seedRatio }
        if let seedTime {
            settings.seedMinutes = seedTime == "none" ? nil : try SeedGoal.minutes(parsing: seedTime)
        }
        if let uploadLimit {
            guard let rate = Formatting.parseRate(uploadLimit) else {
                throw InputError("'\(TerminalText.sanitize(uploadLimit))' is not a rate (e.g. 500K or 2M)")
            }
            settings.uploadLimit = rate == 0 ? nil : rate
        }
        return settings
    }

    /// `--seed-ratio` when it is one, for the saved settings and for a torrent's own.
    private func checkedSeedRatio() throws(InputError) -> Double? {
        guard let seedRatio else { return nil }
        guard seedRatio >= 0, seedRatio.isFinite else { throw InputError("--seed-ratio must be 0 or more") }
        return seedRatio
    }

    static func describe(_ s: TorrentSettings) -> String {
        func word(_ on: Bool) -> String { on ? "on" : "off" }
        let ratio = s.seeds ? "seed ratio \(Formatting.ratio(s.seedRatio))" : "no seeding"
        let time = s.seeds ? s.seedMinutes.map { ", seed time \($0) min" } ?? "" : ""
        let upload = s.uploadLimit.map { "upload limit \(Formatting.rate(Double($0)))" } ?? "no upload limit"
        return "dht \(word(s.dht)), pex \(word(s.pex)), lsd \(word(s.lsd)), port mapping \(word(s.portMapping)); "
            + "listening on \(s.interface.map { TerminalText.sanitize($0) } ?? "every address") port \(s.port); "
            + "\(ratio)\(time); \(upload)"
    }
}
