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

    @Option(
        name: [.customShort("i"), .long],
        help: ArgumentHelp(
            "Read URLs from a file ('-' for standard input): one per line, or aria2's input-file format (indented "
                + "dir=, out=, checksum=, header=, split=, max-connection-per-server= lines under a URL).",
            valueName: "file")
    )
    var inputFile: String?

    @Option(
        name: [.customShort("d"), .long],
        help: ArgumentHelp("Directory to save into (created if missing).", valueName: "dir"))
    var directory: String?

    @Option(
        name: [.customShort("o"), .long], help: ArgumentHelp("File name to save as (one URL only).", valueName: "name"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Expected checksum, TYPE=HEX with TYPE md5, sha-1, sha-224, sha-256, sha-384 or sha-512; a mismatch "
                + "fails the download.",
            valueName: "type=hex"))
    var checksum: String?

    @Option(name: .long, help: ArgumentHelp("Expected SHA-256 (same as --checksum sha-256=HEX).", valueName: "hex"))
    var sha256: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file as sha256sum, sha512sum, sha1sum or md5sum write it; each download is checked against the "
                + "line for its file name.",
            valueName: "file"))
    var checksumFile: String?

    @Option(name: .long, help: ArgumentHelp("A request header, 'Name: value' (repeatable).", valueName: "header"))
    var header: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Cookies to send, from a cookies.txt file (Netscape format, as curl -b, wget and aria2c read it); "
                + "default: 'haul cookies'.",
            valueName: "file"))
    var loadCookies: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Its own proxy: http://host:port, socks5://host:port, socks5h://host:port, or none (see haul proxy).",
            valueName: "proxy"))
    var proxy: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Logins for the hosts you name, from this netrc file (default: $NETRC, else ~/.netrc); never sent to "
                + "another host or a mirror.",
            valueName: "file"))
    var netrcFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Another URL of the same file (repeatable, one URL only): the file is fetched from all of them at once.",
            valueName: "url"))
    var mirror: [String] = []

    @Flag(
        name: .long,
        help: "Use no mirrors or checksums that servers name in Link and Digest headers or Metalink documents.")
    var noMirrors = false

    @Option(
        name: [.customShort("x"), .long],
        help: ArgumentHelp(
            "Most connections per file, 1-32 (default: 'haul connections', 8). Servers that serve ranges get "
                + "several; others one.",
            valueName: "n"))
    var connections: Int?

    @Option(name: .long, help: ArgumentHelp("Its own speed limit, e.g. 500K or 2M.", valueName: "rate"))
    var limit: String?

    @Option(
        name: .long, help: ArgumentHelp("For a torrent: its own upload limit, e.g. 200K.", valueName: "rate"))
    var uploadLimit: String?

    @Option(
        name: .customLong("select-file"),
        help: ArgumentHelp("For a torrent: only these files, numbered from 1 (e.g. 1,3-5).", valueName: "list"))
    var selectFile: String?

    @Flag(name: .long, help: "Allow this download on a metered network.")
    var allowMetered = false

    @Flag(name: .long, help: "Add it paused.")
    var paused = false

    @Flag(name: .long, help: "Start the background daemon when nothing runs the downloads yet.")
    var start = false

    @OptionGroup var stateOptions: StateOptions
    @OptionGroup var connectOptions: ConnectOptions

    func validate() throws {
        if urls.isEmpty && inputFile == nil { throw ValidationError("give at least one URL (or -i FILE)") }
        if let connections, !StateDocument.Settings.connectionRange.contains(connections) {
            throw ValidationError("--connections must be between 1 and 32")
        }
        if let uploadLimit, (Formatting.parseRate(uploadLimit) ?? 0) < SpeedLimit.minimumRate {
            throw ValidationError("--upload-limit takes a speed such as 200K or 2M")
        }
        if let limit, Formatting.parseRate(limit) == nil {
            throw ValidationError("--limit takes a speed such as 500K or 2M")
        }
        if output != nil && (urls.count > 1 || inputFile != nil) {
            throw ValidationError("-o names one file; give one URL with it")
        }
        if !mirror.isEmpty && (urls.count != 1 || inputFile != nil) {
            throw ValidationError("--mirror names another URL of one file; give one URL with it")
        }
        if checksum != nil && sha256 != nil { throw ValidationError("give --checksum or --sha256, not both") }
    }

    func run() async throws {
        let environment = stateOptions.environment
        let plan: AddPlan
        do throws(InputError) {
            plan = try AddPlan.make(self, environment: environment, remote: connectOptions.connect != nil)
        } catch {
            throw error.reported()
        }

        let access = try await EngineAccess.open(stateOptions, remote: connectOptions)
        let engine = access.session
        var added: [(DownloadID, DownloadRequest)] = []
        do {
            // The URLs asked for, looked up in one pass over the list (not a table of every URL in it).
            let asked = Set(plan.requests.map(\.url))
            var existing: [String: DownloadID] = [:]
            try await engine.snapshot().downloads.forEachDownload { d in
                if asked.contains(d.url) { existing[d.url] = d.id }
            }
            var seen = Set<String>()
            for url in plan.requests.map(\.url) {
                if let duplicate = existing[url] {
                    Console.warn(
                        "\(TerminalText.sanitize(url)) is already in the list as \(duplicate); adding it again")
                } else if !seen.insert(url).inserted {
                    Console.warn("\(TerminalText.sanitize(url)) is given more than once; adding it each time")
                }
            }
            // One command: all are added or none, and a daemon gets one message, not one per URL.
            let ids = try await engine.perform(.add(plan.requests))
            added = Array(zip(ids, plan.requests))
            // The add is journaled and synced either way. A long list is left there for the next
            // haul that opens the state to fold in, rather than rewriting a large state file now;
            // a few are saved into the state file at once, as every other command saves.
            if ids.count < Self.batchLeftToTheJournal { try await engine.save() }
        } catch {
            try? await engine.save()
            throw Console.failure(error)
        }
        printAdded(added)
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
