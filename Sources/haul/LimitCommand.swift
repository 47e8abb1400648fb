import ArgumentParser
import HaulCore

struct LimitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limit",
        abstract: "Show or set the speed limit: for all downloads together, or for some (saved).",
        discussion:
            "Rates as curl writes them: 500K, 8M, 1.5M (binary units, per second); 'none' lifts the limit. All "
            + "connections of all downloads draw from the global limit; a download's own limit holds on top of it. "
            + "--during 08:00-23:00 makes the global limit apply only then (local time); a limit of 0 holds every "
            + "download during its window. While metered, the lower of this and 'haul metered --limit' applies. "
            + "--upload sets what torrents send instead: all together (as 'haul torrents --upload-limit'), or "
            + "the torrents named."
    )

    @Argument(help: ArgumentHelp("A rate such as 2M, 0 or none; omit to show the limits.", valueName: "rate"))
    var rate: String?

    @Argument(help: ArgumentHelp("Downloads to set it for (ids or unique prefixes).", valueName: "id"))
    var ids: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Apply the global limit only in this daily window, e.g. 09:00-17:00.", valueName: "window"))
    var during: String?

    @Option(
        name: .long,
        help: ArgumentHelp("For each download from hosts matching this glob (see haul hosts).", valueName: "pattern"))
    var `for`: String?

    @Flag(name: .long, help: "The rate limits what torrents upload (seeding included), not downloads.")
    var upload = false

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    /// What the rate argument says: a rate, or nil to lift the limit.
    private func parsedRate() throws -> Int64?? {
        guard let rate else { return .none }
        if rate.lowercased() == "none" { return .some(nil) }
        guard let bytes = Formatting.parseRate(rate) else {
            // The rate comes first: 'haul limit --upload ID' reads the id as a rate.
            throw InputError(
                "'\(TerminalText.sanitize(rate))' is not a speed; try 500K, 8M or none (the rate comes before any ids)"
            ).reported()
        }
        return .some(bytes)
    }

    func validate() throws {
        if during != nil && !ids.isEmpty { throw ValidationError("--during applies to the global limit only") }
        if upload && (during != nil || self.for != nil) {
            throw ValidationError("--upload limits torrents: give a rate and, for some, their ids")
        }
        if during != nil && rate == nil {
            throw ValidationError("give a rate with --during, e.g. 'limit 2M --during 08:00-23:00'")
        }
    }

    func run() async throws {
        let rate = try parsedRate()
        var window: DailyWindow?
        if let during {
            guard let parsed = DailyWindow(during) else {
                throw InputError("--during takes a daily window such as 08:00-23:00").reported()
            }
            window = parsed
        }
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        if upload { return try await setUploadLimit(rate, on: engine) }
        if let pattern = self.for {
            guard let rate, ids.isEmpty, during == nil else {
                throw InputError("say 'haul limit RATE|none --for PATTERN'").reported()
            }
            if let bytes = rate, bytes < SpeedLimit.minimumRate {
                throw InputError("a host's limit is at least \(Formatting.rate(Double(SpeedLimit.minimumRate)))")
                    .reported()
            }
            do {
                try await HostsCommand.change(pattern, on: engine) { $0.speedLimit = rate }
            } catch {
                throw Console.failure(error)
            }
            let shown = rate.map { Formatting.rate(Double($0)) } ?? "none"
            return Console.out("speed limit for \(TerminalText.sanitize(pattern.lowercased())): \(shown) per download")
        }
        var lines: [String] = []
        do {
            if let rate {
                if ids.isEmpty {
                    try await engine.perform(.setSpeedLimit(rate.map { SpeedLimit(rate: $0, window: window) }))
                } else {
                    if rate == 0 { throw InputError("a download's own limit cannot be 0; pause it instead") }
                    try await engine.perform(.setDownloadSpeedLimit(try await selection(on: engine), rate))
                }
                try await engine.save()
            }
            let snapshot = try await engine.snapshot()
            if ids.isEmpty {
                lines.append("speed limit: \(snapshot.network.speedLimitLabel)")
                if snapshot.network.isMetered, let cap = snapshot.network.limit {
                    lines.append("metered cap: \(Formatting.rate(Double(cap))) (the network is metered)")
                }
            }
            lines += try ownLimitLines(snapshot.downloads.all, own: \.speedLimit, none: "no limit of its own")
        } catch {
            throw Console.failure(error)
        }
        Console.out(lines.joined(separator: "\n"))
    }

    /// `--upload`: the global upload limit (kept with the BitTorrent settings) or the torrents' own.
    private func setUploadLimit(_ rate: Int64??, on engine: any EngineSession) async throws {
        var lines: [String] = []
        do {
            if let rate {
                if rate == 0 {
                    throw InputError("an upload limit of 0 would stop seeding; use 'haul torrents --seed-ratio 0'")
                }
                if ids.isEmpty {
                    var settings = try await engine.snapshot().torrents ?? TorrentSettings()
                    settings.uploadLimit = rate
                    try await engine.perform(.setTorrentSettings(settings))
                } else {
                    try await engine.perform(.setUploadLimit(try await selection(on: engine), rate))
                }
                try await engine.save()
            }
            let snapshot = try await engine.snapshot()
            if ids.isEmpty {
                let global = snapshot.torrents?.uploadLimit.map { Formatting.rate(Double($0)) } ?? "none"
                lines.append("upload limit: \(global)")
            }
            lines += try ownLimitLines(
                snapshot.downloads.all, own: \.request.uploadLimit, none: "no upload limit of its own")
        } catch {
            throw Console.failure(error)
        }
        Console.out(lines.joined(separator: "\n"))
    }

    /// The downloads the ids name (unique prefixes resolved).
    private func selection(on engine: any EngineSession) async throws -> DownloadSelection {
        let known = try await engine.snapshot().downloads.all.map(\.id)
        return .ids(try DownloadSelector.resolve(ids, among: known))
    }

    /// A line per download the ids name, or (none named) per download with a limit of its own.
    private func ownLimitLines(_ all: [Download], own: (Download) -> Int64?, none: String) throws -> [String] {
        let wanted = ids.isEmpty ? nil : Set(try DownloadSelector.resolve(ids, among: all.map(\.id)))
        return all.filter { wanted?.contains($0.id) ?? (own($0) != nil) }.map { d in
            "\(d.id)  \(own(d).map { Formatting.rate(Double($0)) } ?? none)  \(TerminalText.sanitize(d.displayName))"
        }
    }
}
