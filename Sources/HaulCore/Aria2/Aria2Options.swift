/// aria2's options for a new download, as its input files' option lines and its RPC's option
/// structs give them, applied to an ``DownloadRequest``: one reading of them for `haul add -i` and
/// for the RPC endpoint.
public enum Aria2Options {
    /// The options haul carries out. aria2 itself skips options that do not apply; so do the
    /// callers, and `haul add -i` says which it skipped.
    public static let honoured: Set<String> = [
        "dir", "out", "checksum", "header", "referer", "user-agent", "split", "max-connection-per-server",
        "max-download-limit", "max-upload-limit", "pause", "all-proxy", "select-file", "bt-max-peers",
        "seed-ratio", "seed-time", "max-tries", "http-user", "http-passwd",
    ]

    /// An option whose value cannot be used, and why.
    public struct Problem: Error, Sendable, Equatable {
        public let option: String
        public let message: String
    }

    /// Applies `options` in order (a name may come more than once: `header`). `directory`
    /// makes a `dir` value absolute.
    public static func apply(
        _ options: [(name: String, value: String)], to request: inout DownloadRequest, directory: (String) -> String
    ) throws(Problem) {
        for (name, value) in options {
            do {
                try apply(name, value, to: &request, directory: directory)
            } catch {
                throw Problem(option: name, message: error.message)
            }
        }
        // A login is its two options together: the user, and the password (none if not given).
        if let user = options.last(where: { $0.name == "http-user" })?.value, !request.isTorrent,
            !request.headers.contains(where: { $0.name.lowercased() == "authorization" })
        {
            let password = options.last { $0.name == "http-passwd" }?.value ?? ""
            let login = BasicLogin(user: user, password: password)
            request.headers.append(RequestHeader(name: "Authorization", value: login.basicAuthorization))
        }
        // A torrent's connections are its peers, which only `bt-max-peers` counts, as in aria2.
        if request.isTorrent {
            if let peers = options.last(where: { $0.name == "bt-max-peers" }).flatMap({ Int($0.value) }) {
                request.connections = PeerLimit.from(peers)
            }
            return
        }
        // aria2 opens the fewer of the two for a file from one server.
        let counts = options.filter { $0.name == "split" || $0.name == "max-connection-per-server" }
            .compactMap { Int($0.value) }
        if let fewest = counts.min() { request.connections = fewest }
    }

    private static func apply(
        _ name: String, _ value: String, to request: inout DownloadRequest, directory: (String) -> String
    ) throws(InputError) {
        switch name {
        case "dir":
            request.directory = directory(value)
        case "out":
            // Checked here too, so a list names the line of a bad one.
            _ = try RequestedPath(value)
            request.requestedName = value
        case "checksum":
            request.checksum = try Checksum(parsing: value)
        case "header":
            request.headers.append(try RequestHeader.parse(value))
        case "referer":
            request.headers.append(try RequestHeader.parse("Referer: \(value)"))
        case "user-agent":
            request.headers.append(try RequestHeader.parse("User-Agent: \(value)"))
        case "split", "max-connection-per-server":
            guard let count = Int(value), Download.connectionRange.contains(count) else {
                throw InputError("haul uses 1 to 32 connections per file")
            }
        case "max-download-limit":
            guard let rate = Formatting.parseRate(value) else {
                throw InputError("'\(TerminalText.sanitize(value))' is not a rate (e.g. 500K or 2M)")
            }
            request.speedLimit = rate == 0 ? nil : max(rate, SpeedLimit.minimumRate)
        case "max-upload-limit":
            guard let rate = Formatting.parseRate(value) else {
                throw InputError("'\(TerminalText.sanitize(value))' is not a rate (e.g. 500K or 2M)")
            }
            request.uploadLimit = rate == 0 ? nil : max(rate, SpeedLimit.minimumRate)
        case "pause":
            guard let paused = Bool(value) else { throw InputError("pause is true or false") }
            request.paused = paused
        case "all-proxy":
            // aria2's empty value: no proxy for this download.
            request.proxy = value.isEmpty ? .direct : try ProxyChoice(parsing: value)
        case "select-file":
            request.selectedFiles = value.isEmpty ? nil : try FileSelection(value)
        case "seed-ratio":
            request.seedGoal = (request.seedGoal ?? SeedGoal()).merged(
                with: SeedGoal(ratio: try SeedGoal.ratio(parsing: value)))
        case "seed-time":
            request.seedGoal = (request.seedGoal ?? SeedGoal()).merged(
                with: SeedGoal(minutes: try SeedGoal.minutes(parsing: value)))
        case "max-tries":
            guard let tries = Int(value), tries >= 0 else {
                throw InputError("'\(TerminalText.sanitize(value))' is not a number of tries (0 for no limit)")
            }
            request.tries = tries
        case "bt-max-peers":
            guard let count = Int(value), count >= 0 else {
                throw InputError("'\(TerminalText.sanitize(value))' is not a number of peers (0 for no limit)")
            }
        default:
            return
        }
    }
}
