import FoundationEssentials
import HaulCore
import HaulEngine
import HaulStore

/// What `haul add` and `haul URL…` ask the engine for: one request per URL, from the command
/// line's options and, for `-i`, each entry's own aria2 options. Reads the files the options name and creates the
/// folders; every problem is one ``InputError`` before anything is added.
struct AddPlan {
    var requests: [DownloadRequest]

    /// `remote`: for an engine on another machine (`--connect`), where `-d` names a folder on that
    /// machine, the engine's own folder is the default, and nothing here is created or read.
    /// `defaultDirectory`: where a download that no option or folder rule places goes (nil: the
    /// download directory; `haul URL` gives the current one).
    static func make(
        urls: [String], _ command: DownloadOptions, paused: Bool = false, environment: [String: String],
        remote: Bool = false, defaultDirectory: String? = nil
    ) throws(InputError) -> AddPlan {
        if remote { return try makeRemote(urls: urls, command, paused: paused) }
        let headers = try command.headerLines.map { h throws(InputError) in try RequestHeader.parse(h) }
        let checksum = try checksum(command)
        let checksums = try command.checksumFile.map { path throws(InputError) in
            try ChecksumList(parsing: TextFile.read(path, what: "checksum file"))
        }
        let cookieFile = try command.loadCookies.map { path throws(InputError) in
            let absolute = StatePaths.absolute(path, environment: environment)
            _ = try CookieFile.load(absolute) // one sentence now, not a failed download later
            return absolute
        }
        let netrcFile = try netrc(command.netrcFile, environment: environment)
        let proxy = try command.proxy.map { text throws(InputError) in try ProxyChoice(parsing: text) }
        var metalinks: [Metalink] = []
        var torrents: [[UInt8]] = []
        var entries: [InputFile.Entry] = []
        for (index, url) in urls.enumerated() {
            if let torrent = try TorrentFile.read(url) {
                torrents.append(torrent)
            } else if let metalink = try MetalinkFile.read(url) {
                metalinks.append(metalink)
            } else {
                entries.append(InputFile.Entry(url: url, line: index, options: [], mirrors: command.mirror))
            }
        }
        let listed = try command.inputFile.map { path throws(InputError) in try URLListFile.read(path) }
        let givenOnCommandLine = entries.count
        entries += listed?.entries ?? []
        guard !entries.isEmpty || !metalinks.isEmpty || !torrents.isEmpty else {
            throw InputError("\(TerminalText.sanitize(command.inputFile ?? "")) lists no URLs")
        }
        if let listed, let file = command.inputFile { warnAboutIgnored(listed, file: file) }

        let output = try command.output.map { text throws(InputError) in try OutputPath(text) }
        // Without -d (or a folder in -o) the folder is left to the add path: a folder rule, else
        // the download directory.
        let directory =
            (output?.directory(under: command.directory) ?? command.directory).map {
                StatePaths.absolute($0, environment: environment)
            } ?? ""
        let speedLimit = command.limit.flatMap(Formatting.parseRate)
        let selection = try command.selectFile.map { text throws(InputError) in try FileSelection(text) }
        let uploadLimit = command.uploadLimit.flatMap(Formatting.parseRate)
        var requests: [DownloadRequest] = []
        for torrent in torrents {
            var request = TorrentFile.request(torrent, directory: directory)
            request.allowMetered = command.allowMetered
            request.paused = paused
            request.speedLimit = speedLimit
            request.selectedFiles = selection
            request.uploadLimit = uploadLimit
            request.seedGoal = command.seedGoal
            request.tries = command.attempts
            // A torrent's connections are its peers.
            request.connections = command.peerCount
            requests.append(request)
        }
        for (index, entry) in entries.enumerated() {
            let (url, sources) = try checkedURLs(of: entry, listed: index >= givenOnCommandLine)
            var request = DownloadRequest(
                url: url, directory: directory, requestedName: output?.name, headers: headers,
                checksum: checksum, allowMetered: command.allowMetered, paused: paused,
                connections: command.connectionCount, speedLimit: speedLimit, cookieFile: cookieFile)
            request.sources = sources
            request.tries = command.attempts
            if command.noMirrors { request.ignoresMirrorHeaders = true }
            if request.isTorrent {
                request.connections = command.peerCount
                request.selectedFiles = selection
                request.uploadLimit = uploadLimit
                request.seedGoal = command.seedGoal
            }
            request.login = netrcFile.map { .netrcFile($0) }
            request.proxy = proxy
            try apply(entry, to: &request) { StatePaths.absolute($0, environment: environment) }
            if let checksums, request.checksum == nil {
                // The name it is saved as (`-o`, `out=`, with its folders, then without), else the
                // name the server has it by.
                let asked = request.requestedName
                let names = [asked, asked.flatMap { try? RequestedPath($0).name }, FileNaming.nameFromURL(url)]
                    .compactMap { $0 }
                guard let listed = names.lazy.compactMap(checksums.checksum(for:)).first else {
                    let name = names.last ?? url
                    throw InputError("the checksum file has no line for '\(TerminalText.sanitize(name))'")
                }
                request.checksum = listed
            }
            requests.append(request)
        }
        for metalink in metalinks {
            for var request in MetalinkFile.requests(metalink, directory: directory, checksum: checksum) {
                request.allowMetered = command.allowMetered
                request.paused = paused
                request.connections = command.connectionCount
                request.speedLimit = speedLimit
                request.tries = command.attempts
                if command.noMirrors { request.ignoresMirrorHeaders = true }
                requests.append(request)
            }
        }
        // A torrent's files keep the names it gives them, as aria2c keeps them: said, not ignored.
        if command.output != nil, requests.contains(where: \.isTorrent) {
            Console.warn("-o does not rename a torrent: its files keep the names the torrent gives them")
            requests = requests.map { request in
                var request = request
                if request.isTorrent { request.requestedName = nil }
                return request
            }
        }
        // The engine's own add path, here before the (possibly large) state is read: a folder that
        // cannot be made is said at once, and the list printed names each file's folder.
        var path = AddPath(environment: environment, defaultDirectory: defaultDirectory)
        requests = try requests.map { request throws(InputError) in try path.resolve(request) }
        return AddPlan(requests: requests)
    }

    /// The requests for an engine on another machine: URLs (a `-i` list's with their aria2
    /// options), `-d` and `dir=` as that machine's paths, the options aria2 has. Files on this
    /// machine (cookies, netrc, checksum lists) are not sent.
    private static func makeRemote(urls: [String], _ command: DownloadOptions, paused: Bool) throws(InputError)
        -> AddPlan
    {
        if let directory = command.directory, !directory.hasPrefix("/") {
            throw InputError("with --connect, -d names a folder on the engine's machine: give its absolute path")
        }
        if command.loadCookies != nil || command.checksumFile != nil || command.netrcFile != nil {
            throw InputError(
                "with --connect, files on this machine (--load-cookies, --checksum-file, --netrc-file) cannot be used")
        }
        let headers = try command.headerLines.map { h throws(InputError) in try RequestHeader.parse(h) }
        let checksum = try checksum(command)
        // `-o`: an absolute path is a folder on the engine's machine and a name; anything else is
        // aria2's `out`, under `-d` or the engine's folder.
        var (directory, name) = (command.directory ?? "", command.output)
        if let output = command.output, case let path = try OutputPath(output), let folder = path.folder,
            folder.hasPrefix("/")
        {
            (directory, name) = (folder, path.name)
        }
        var entries = urls.enumerated().map { InputFile.Entry(url: $1, line: $0, mirrors: command.mirror) }
        let givenOnCommandLine = entries.count
        if let file = command.inputFile {
            let listed = try URLListFile.read(file)
            entries += listed.entries
            warnAboutIgnored(listed, file: file)
        }
        let requests = try entries.enumerated().map { index, entry throws(InputError) in
            let (url, sources) = try checkedURLs(of: entry, listed: index >= givenOnCommandLine)
            var request = DownloadRequest(
                url: url, directory: directory, requestedName: name, headers: headers,
                checksum: checksum, paused: paused, connections: command.connectionCount,
                speedLimit: command.limit.flatMap(Formatting.parseRate))
            request.sources = sources
            request.tries = command.attempts
            if request.isTorrent {
                request.connections = command.peerCount
                request.seedGoal = command.seedGoal
            }
            try apply(entry, to: &request) { $0 }
            if let dir = entry.value("dir"), !request.directory.hasPrefix("/") {
                throw InputError(
                    "line \(dir.line), dir=: with --connect, dir= names a folder on the engine's machine: give its "
                        + "absolute path")
            }
            return request
        }
        return AddPlan(requests: requests)
    }

    /// `--checksum TYPE=HEX` or `--sha256 HEX`.
    private static func checksum(_ command: DownloadOptions) throws(InputError) -> Checksum? {
        if let text = command.checksum { return try Checksum(parsing: text) }
        if let hex = command.sha256 { return try Checksum(.sha256, hex: hex) }
        return nil
    }

    /// The netrc file to take logins from: `--netrc-file` (which must exist), else `NETRC` or
    /// `~/.netrc` when there is one; one that others can read is named in a warning and not used.
    private static func netrc(_ given: String?, environment: [String: String]) throws(InputError) -> String? {
        guard
            let path = given.map({ StatePaths.absolute($0, environment: environment) })
                ?? NetrcFile.defaultPath(environment: environment)
        else { return nil }
        let outcome = NetrcFile.read(path)
        if outcome == .missing {
            if given != nil { throw InputError("there is no netrc file \(TerminalText.sanitize(path))") }
            return nil
        }
        if let warning = NetrcFile.warning(outcome, path: path) { Console.warn(warning) }
        return path
    }

    /// An entry's URL and its mirrors as sources, checked; a bad one of a `-i` list (`listed`)
    /// is named by its line, found among thousands.
    private static func checkedURLs(of entry: InputFile.Entry, listed: Bool) throws(InputError)
        -> (url: String, sources: [DownloadSource])
    {
        func check(_ url: String) throws(InputError) -> String {
            do {
                return try DownloadURL.validate(url)
            } catch {
                guard listed else { throw error }
                throw InputError("line \(entry.line): \(error.message)")
            }
        }
        let sources = try entry.mirrors.map { mirror throws(InputError) in
            DownloadSource(url: try check(mirror), origin: .user)
        }
        return (try check(entry.url), sources)
    }

    /// An aria2 entry's own options, over the command line's; `directory` reads a `dir=` value.
    private static func apply(
        _ entry: InputFile.Entry, to request: inout DownloadRequest, directory: (String) -> String
    ) throws(InputError) {
        do {
            try Aria2Options.apply(entry.options.map { ($0.name, $0.value) }, to: &request, directory: directory)
        } catch {
            let line = entry.value(error.option)?.line ?? entry.line
            throw InputError("line \(line), \(error.option)=: \(error.message)")
        }
    }

    /// Names the aria2 options haul does not use, each once.
    private static func warnAboutIgnored(_ file: InputFile, file path: String) {
        var ignored: [String] = []
        for entry in file.entries {
            for option in entry.options
            where !Aria2Options.honoured.contains(option.name) && !ignored.contains(option.name) {
                ignored.append(option.name)
            }
        }
        let shown = TerminalText.sanitize(path)
        if !ignored.isEmpty {
            let names = ignored.map { TerminalText.sanitize($0) + "=" }.joined(separator: ", ")
            Console.warn("\(shown): haul does not use the aria2 option(s) \(names); the downloads are added without")
        }
    }
}
