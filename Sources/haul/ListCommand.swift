import ArgumentParser
import HaulCore
import HaulEngine
import HaulHTTP
import HaulRemote
import HaulStore

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List downloads.",
        discussion:
            "With --json: an array of objects with id, url, path, state "
            + "(waiting|downloading|paused|finished|failed), reason (string or null), receivedBytes and "
            + "totalBytes (null when unknown), and more."
    )

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func run() async throws {
        let downloads: DownloadList
        let proxies: ProxySettings?
        if connectOptions.connect != nil {
            let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
            do {
                downloads = try await engine.snapshot().downloads
            } catch {
                throw Console.failure(error)
            }
            proxies = nil
        } else if let owner = try await EngineAccess.connect(stateOptions) {
            // A haul owns the state: ask it, the file may be a moment behind. If it dies meanwhile,
            // the file is the truth again.
            if let live = try? await owner.snapshot() {
                (downloads, proxies) = (live.downloads, live.proxies)
            } else {
                let state = try stateOptions.readState()
                (downloads, proxies) = (state.downloads, state.settings.proxies)
            }
            owner.close()
        } else {
            let state = try stateOptions.readState()
            (downloads, proxies) = (state.downloads, state.settings.proxies)
        }
        do {
            if json {
                let environment = ProxyEnvironment(environment: stateOptions.environment)
                let saved = proxies ?? ProxySettings()
                // Most lists have no proxy anywhere: then no URL is parsed for it.
                let anyProxy = !saved.isEmpty || environment.http != nil || environment.https != nil
                let proxy = { (d: Download) -> String? in
                    guard anyProxy || d.request.proxy != nil else { return nil }
                    let host = saved.hosts.isEmpty ? nil : URLParts(d.url)?.host
                    let choice = saved.choice(forHost: host, own: d.request.proxy)
                    return environment.endpoint(for: d.url, choice: choice).map { ProxyAddress($0).display }
                }
                let now = stateOptions.wallClock.now()
                // A torrent's files as its state folder keeps them (an engine's on another machine: none).
                let statePath = connectOptions.connect == nil ? stateOptions.statePath : nil
                let files = { (d: Download) -> [TorrentDetails.File]? in
                    statePath.flatMap { Engine.storedTorrentDetails(d, statePath: $0)?.files }
                }
                try ListingJSON.write(downloads, now: now, proxy: proxy, files: files) { FileHandleWriter.stdout($0) }
                return
            }
            guard downloads.count > 0 else {
                Console.out("no downloads (add one with 'haul add URL')")
                return
            }
            Console.out(try ListTable.render(downloads))
        } catch {
            Console.error("could not read the list of downloads the haul that owns the state sent")
            throw ExitStatus.stateUnavailable
        }
    }
}

/// The human table of `haul ls`.
enum ListTable {
    static func render(_ downloads: DownloadList) throws -> String {
        // haul's ids are six digits, an aria2 engine's GIDs sixteen: one engine's are alike.
        var idWidth: Int?
        var lines = [""]
        lines.reserveCapacity(downloads.count + 1)
        try downloads.forEachDownload { d in
            let width = idWidth ?? max(6, d.id.rawValue.count)
            idWidth = width
            let percent = Formatting.percent(received: d.receivedBytes, total: d.totalBytes).map { "\($0)%" } ?? "--"
            let size = d.totalBytes.map { Formatting.bytes($0) } ?? Formatting.bytes(d.receivedBytes)
            let state = d.torrent?.seeding == true ? "seeding" : d.state.kind.rawValue
            var line =
                "\(pad(d.id.rawValue, width))  \(pad(state, 11))  "
                + "\(pad(percent, 4, left: true))  \(pad(size, 11))  "
                + "\(TerminalText.sanitize(d.displayName))"
            if let reason = d.reason { line += "  (\(TerminalText.sanitize(reason)))" }
            lines.append(line)
        }
        lines[0] = pad("ID", idWidth ?? 6) + "  STATE        DONE  SIZE         NAME"
        return lines.joined(separator: "\n")
    }

    private static func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
}
