import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulStore

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Queue one or more URLs.",
        discussion:
            "Files land in the XDG download directory (~/Downloads) unless -d says otherwise. An existing file is "
            + "never overwritten: the new one becomes 'name (1).ext'. Run 'haul run' (or open 'haul') to "
            + "download."
    )

    @Argument(help: ArgumentHelp("http:// or https:// URLs.", valueName: "url"))
    var urls: [String] = []

    @Option(
        name: [.customShort("i"), .long],
        help: ArgumentHelp(
            "Read URLs from a file, one per line ('-' for standard input); blank lines and lines starting with # "
                + "are skipped.",
            valueName: "file")
    )
    var inputFile: String?

    @Option(
        name: [.customShort("d"), .long], help: ArgumentHelp("Directory to save into (must exist).", valueName: "dir"))
    var directory: String?

    @Option(
        name: [.customShort("o"), .long], help: ArgumentHelp("File name to save as (one URL only).", valueName: "name"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Expected SHA-256 of the file; a mismatch fails the download.", valueName: "hex"))
    var sha256: String?

    @Option(name: .long, help: ArgumentHelp("A request header, 'Name: value' (repeatable).", valueName: "header"))
    var header: [String] = []

    @Option(
        name: [.customShort("x"), .long],
        help: ArgumentHelp(
            "Most connections per file, 1-32 (default: 'haul connections', 8). Servers that serve ranges get "
                + "several; others one.",
            valueName: "n"))
    var connections: Int?

    @Option(name: .long, help: ArgumentHelp("Its own speed limit, e.g. 500K or 2M.", valueName: "rate"))
    var limit: String?

    @Flag(name: .long, help: "Allow this download on a metered network.")
    var allowMetered = false

    @Flag(name: .long, help: "Add it paused.")
    var paused = false

    @OptionGroup var stateOptions: StateOptions

    func validate() throws {
        if urls.isEmpty && inputFile == nil { throw ValidationError("give at least one URL (or -i FILE)") }
        if let connections, !StateDocument.Settings.connectionRange.contains(connections) {
            throw ValidationError("--connections must be between 1 and 32")
        }
        if let limit, Formatting.parseRate(limit) == nil {
            throw ValidationError("--limit takes a speed such as 500K or 2M")
        }
        if output != nil && (urls.count > 1 || inputFile != nil) {
            throw ValidationError("-o names one file; give one URL with it")
        }
    }

    func run() async throws {
        let environment = stateOptions.environment
        let headers: [RequestHeader]
        let validURLs: [String]
        let directory: String
        do throws(InputError) {
            headers = try header.map { h throws(InputError) in try RequestHeader.parse(h) }
            var listed: [String] = []
            if let inputFile { listed = try URLListFile.read(inputFile) }
            guard !(urls + listed).isEmpty else {
                throw InputError("\(TerminalText.sanitize(inputFile ?? "")) lists no URLs")
            }
            validURLs = try (urls + listed).map { u throws(InputError) in try DownloadURL.validate(u) }
            directory = try resolveDirectory(environment: environment)
            try Engine.checkDirectory(directory) // before the state is read: 0.6 s with 100,000 downloads
        } catch {
            throw error.reported()
        }

        let access = try await EngineAccess.open(stateOptions)
        let engine = access.session
        var added: [(DownloadID, String)] = []
        do {
            var existing: [String: DownloadID] = [:]
            for d in try await engine.snapshot().downloads { existing[d.url] = d.id }
            var seen = Set<String>()
            for url in validURLs {
                if let duplicate = existing[url] {
                    Console.warn(
                        "\(TerminalText.sanitize(url)) is already in the list as \(duplicate); adding it again")
                } else if !seen.insert(url).inserted {
                    Console.warn("\(TerminalText.sanitize(url)) is given more than once; adding it each time")
                }
            }
            // Read once, not once per URL.
            let (output, sha256, allowMetered, paused) = (self.output, self.sha256, self.allowMetered, self.paused)
            let connections = self.connections
            let speedLimit = limit.flatMap(Formatting.parseRate)
            let requests = validURLs.map { url in
                AddRequest(
                    url: url, directory: directory, fileName: output, headers: headers,
                    sha256: sha256, allowMetered: allowMetered, paused: paused, connections: connections,
                    speedLimit: speedLimit
                )
            }
            // One command: all are added or none, and a daemon gets one message, not one per URL.
            let ids = try await engine.perform(.add(requests))
            added = Array(zip(ids, validURLs))
            try await engine.save()
        } catch {
            try? await engine.save()
            throw Console.failure(error)
        }
        // One write for the lot: `haul add -i` may list thousands.
        let state = Array((paused ? "  paused   " : "  waiting  ").utf8)
        let target = Array("  → \(TerminalText.sanitize(directory))\n".utf8)
        var lines: [UInt8] = []
        lines.reserveCapacity(added.count * (target.count + 80))
        for (id, url) in added {
            lines.append(contentsOf: id.rawValue.utf8)
            lines.append(contentsOf: state)
            lines.append(contentsOf: TerminalText.sanitize(Redaction.url(url)).utf8)
            lines.append(contentsOf: target)
        }
        _ = lines.withUnsafeBytes { FileHandleWriter.stdout($0) }
    }

    /// `-d` made absolute, or the XDG download directory (created when it is the default and missing).
    private func resolveDirectory(environment: [String: String]) throws(InputError) -> String {
        if let directory {
            return StatePaths.absolute(directory, environment: environment)
        }
        let path = StatePaths.downloadDirectory(environment: environment)
        if !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw InputError(
                    "cannot create the download directory \(TerminalText.sanitize(path)): \(error.localizedDescription)"
                )
            }
        }
        return path
    }
}
