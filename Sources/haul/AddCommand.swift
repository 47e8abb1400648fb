import ArgumentParser
import FoundationEssentials
import HaulCore
import HaulEngine
import HaulStore

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Queue one or more URLs.",
        discussion:
            "Files land in the XDG download directory (~/Downloads) unless -d says otherwise; a missing folder is "
            + "created. An existing file is never overwritten: the new one becomes 'name (1).ext'. Run 'haul run', "
            + "open 'haul', or add with --start to download."
    )

    @Argument(
        help: ArgumentHelp(
            "http:// or https:// URLs, magnet links, torrent files (.torrent) or Metalink files (.meta4).",
            valueName: "url"))
    var urls: [String] = []

    @OptionGroup var download: DownloadOptions

    @Flag(name: .long, help: "Add it paused.")
    var paused = false

    @Flag(name: .long, help: "Start the background daemon when nothing runs the downloads yet.")
    var start = false

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    mutating func validate() throws {
        var given = urls
        download.takeURLGivenAsName(into: &given)
        urls = given
        try download.check(urls: urls)
    }

    func run() async throws {
        let environment = stateOptions.environment
        let plan: AddPlan
        do throws(InputError) {
            plan = try AddPlan.make(
                urls: urls, download, paused: paused, environment: environment, remote: connectOptions.connect != nil)
        } catch {
            throw error.reported()
        }

        // An owner that began to stop takes nothing: the add goes to whoever has the state next,
        // this command itself if no one.
        let engine = try await EngineAccess.session(stateOptions, remote: connectOptions)
        let added: [(DownloadID, DownloadRequest)]
        do {
            added = try await add(plan.requests, to: engine)
        } catch {
            try? await engine.save()
            throw Console.failure(error)
        }
        let access = await engine.access
        printAdded(added)
        if case .remote(let owner) = access, !paused { OwnerNotes.sayRunsUntilItsOwnAreDone(owner) }
        guard case .local(let local) = access, !paused else { return }
        if start {
            await local.shutdown()
            do {
                let pid = try await DaemonLauncher.launch(stateOptions, hookArguments: [])
                Console.out("haul daemon (pid \(pid)) downloads in the background; 'haul' shows it")
            } catch {
                Console.error("could not start the background daemon: \(error); 'haul run' downloads the queue")
                throw ExitStatus.stateUnavailable
            }
        } else {
            Console.error("nothing runs the downloads yet: open 'haul', run 'haul run', or add with --start")
        }
    }

    /// Adds `requests` in one command, after a warning for each URL already in the list or given
    /// twice.
    private func add(_ requests: [DownloadRequest], to engine: any EngineSession) async throws
        -> [(DownloadID, DownloadRequest)]
    {
        // The URLs asked for, looked up in one pass over the list (not a table of every URL in it).
        let asked = Set(requests.map(\.url))
        var existing: [String: DownloadID] = [:]
        try await engine.snapshot().downloads.forEachDownload { d in
            if asked.contains(d.url) { existing[d.url] = d.id }
        }
        var seen = Set<String>()
        for url in requests.map(\.url) {
            if let duplicate = existing[url] {
                Console.warn(
                    "\(TerminalText.sanitize(url)) is already in the list as \(duplicate); adding it again")
            } else if !seen.insert(url).inserted {
                Console.warn("\(TerminalText.sanitize(url)) is given more than once; adding it each time")
            }
        }
        // One command: all are added or none, and a daemon gets one message, not one per URL.
        let ids = try await engine.perform(.add(requests))
        // The add is journaled and synced either way. A long list is left there for the next
        // haul that opens the state to fold in, rather than rewriting a large state file now;
        // a few are saved into the state file at once, as every other command saves.
        if ids.count < Self.batchLeftToTheJournal { try await engine.save() }
        return Array(zip(ids, requests))
    }

    /// Adds this many or more are not followed by a save of the whole state file.
    static let batchLeftToTheJournal = 1_000

    /// One line per download; one write for the lot: `haul add -i` may list thousands.
    private func printAdded(_ added: [(DownloadID, DownloadRequest)]) {
        let state = Array((paused ? "  paused   " : "  waiting  ").utf8)
        var lines: [UInt8] = []
        lines.reserveCapacity(added.count * 160)
        var lastDirectory: (String, [UInt8])?
        for (id, request) in added {
            if lastDirectory?.0 != request.directory {
                let folder =
                    request.directory.isEmpty
                    ? "the engine's download folder" : TerminalText.sanitize(request.directory)
                lastDirectory = (request.directory, Array("  → \(folder)\n".utf8))
            }
            lines.append(contentsOf: id.rawValue.utf8)
            lines.append(contentsOf: state)
            lines.append(contentsOf: TerminalText.sanitize(Redaction.url(request.url)).utf8)
            lines.append(contentsOf: lastDirectory?.1 ?? [])
        }
        _ = lines.withUnsafeBytes { FileHandleWriter.stdout($0) }
    }
}
