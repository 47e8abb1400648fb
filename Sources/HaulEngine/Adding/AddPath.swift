import FoundationEssentials
import HaulCore
import HaulStore

#if canImport(Glibc)
    import Glibc
#endif

/// The one way a download comes in. Every door (`haul add` and its `-i` files, `haul URL`, the
/// UI's add dialog, `aria2.addUri` and `aria2.addMetalink`, a Metalink's files) hands the engine
/// ``DownloadRequest``s, and the engine resolves each here, in one order:
///
/// 1. the door's own options, already in the request;
/// 2. a request that names no folder: the first folder rule that matches its name or host, else
///    the download directory; the folder is created when missing and must be writable;
/// 3. the URL, mirrors, name and numbers checked and made canonical; a name with folders
///    (aria2's `out=isos/a.iso`) puts the file in those folders, below the request's folder;
/// 4. the netrc login for the host the person or client named (never for a mirror; a redirect
///    to another host drops it, as it drops any credentials in a URL).
///
/// Per-host settings, proxies and the saved defaults are read when a transfer starts, so they
/// hold for every download whichever door it came through.
public struct AddPath {
    /// The engine's environment: where the folder rules, the download directory and the usual
    /// netrc file are.
    public let environment: [String: String]
    /// Where a request that names no folder and matches no rule goes; nil: the download
    /// directory. `haul URL` makes it the current directory, as wget does.
    public let defaultDirectory: String?
    private var rules: FolderRules?
    /// The folder for requests no rule places, read once per batch.
    private var fallback: String?
    private var netrcs: [String: Netrc?] = [:]
    private var checked: Set<String> = []
    private var lastChecked: String?

    public init(environment: [String: String], defaultDirectory: String? = nil) {
        self.environment = environment
        self.defaultDirectory = defaultDirectory
    }

    /// `request` as the engine keeps it, or the one sentence that says why it cannot be added.
    public mutating func resolve(_ request: DownloadRequest) throws(InputError) -> DownloadRequest {
        var request = try Self.validated(request)
        let asked = try request.requestedName.map { name throws(InputError) in try RequestedPath(name) }
        if request.directory.isEmpty { request.directory = try folder(for: request, named: asked?.name) }
        // A name with folders (aria2's `out=isos/a.iso`) is saved in them, below the folder.
        if let asked, !asked.folders.isEmpty {
            request.directory = asked.directory(in: request.directory)
            request.requestedName = asked.name
        }
        // A list usually shares one folder: compared, not hashed, per request.
        if request.directory != lastChecked {
            if checked.insert(request.directory).inserted {
                try DownloadDirectory.create(request.directory)
                try Self.checkDirectory(request.directory)
            }
            lastChecked = request.directory
        }
        if let login = request.login {
            if let netrc = netrc(login) {
                request.url = NetrcFile.url(request.url, headers: request.headers, netrc: netrc)
            }
            request.login = nil
        }
        return request
    }

    /// The folder a request that names none goes to: the folder rules' for its name (`name`,
    /// else the URL's; read once per batch), else the download directory.
    private mutating func folder(for request: DownloadRequest, named name: String?) throws(InputError) -> String {
        if rules == nil { rules = try FolderRulesFile.read(StatePaths.folderRules(environment: environment)) }
        if let rules, !rules.rules.isEmpty {
            let name = name ?? FileNaming.nameFromURL(request.url)
            if let folder = rules.folder(
                name: name, host: URLParts(request.url)?.host, home: StatePaths.home(environment))
            {
                return folder
            }
        }
        if fallback == nil { fallback = defaultDirectory ?? StatePaths.downloadDirectory(environment: environment) }
        return fallback ?? ""
    }

    /// The netrc a login source names, read once per batch; nil when there is none or it may not
    /// be used (others can read it).
    private mutating func netrc(_ login: LoginSource) -> Netrc? {
        let path: String
        switch login {
        case .usualNetrc:
            guard let usual = NetrcFile.defaultPath(environment: environment) else { return nil }
            path = usual
        case .netrcFile(let file): path = file
        }
        if let known = netrcs[path] { return known }
        var netrc: Netrc?
        if case .loaded(let loaded) = NetrcFile.read(path) { netrc = loaded }
        netrcs[path] = netrc
        return netrc
    }

    /// `request` with its URL in canonical form, or the reason it cannot be added.
    static func validated(_ request: DownloadRequest) throws(InputError) -> DownloadRequest {
        var request = request
        if let metainfo = request.metainfo {
            request.url = try TorrentMetadata(torrent: metainfo).magnet
            return try validatedOptions(request)
        }
        if MagnetLink.isMagnet(request.url) {
            request.url = try MagnetLink.validate(request.url)
            _ = try TorrentMetadata(magnet: request.url)
            return try validatedOptions(request)
        }
        request.url = try DownloadURL.validate(request.url)
        if !request.sources.isEmpty {
            request.sources = DownloadSource.ordered(
                try request.sources.map { source throws(InputError) in
                    var source = source
                    source.url = try DownloadURL.validate(source.url)
                    return source
                }, excluding: request.url)
        }
        return try validatedOptions(request)
    }

    /// `request` when its numbers are within bounds (its name is read by ``resolve(_:)``).
    private static func validatedOptions(_ request: DownloadRequest) throws(InputError) -> DownloadRequest {
        var request = request
        if request.isTorrent {
            // A torrent's connections are its peers (`-x`, aria2's `bt-max-peers`).
            request.connections = request.connections.flatMap(PeerLimit.from)
        } else if let connections = request.connections,
            !StateDocument.Settings.connectionRange.contains(connections)
        {
            throw InputError("--connections must be between 1 and 32")
        }
        if let rate = request.speedLimit, rate < SpeedLimit.minimumRate {
            throw InputError("--limit must be at least \(Formatting.rate(Double(SpeedLimit.minimumRate)))")
        }
        return request
    }

    /// Refuses a download directory that is relative, missing, not a directory or not writable.
    static func checkDirectory(_ path: String) throws(InputError) {
        let shown = TerminalText.sanitize(path)
        guard path.hasPrefix("/") else { throw InputError("directory '\(shown)' must be an absolute path") }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError("directory '\(shown)' does not exist")
        }
        guard isDirectory else { throw InputError("'\(shown)' is not a directory") }
        guard access(path, W_OK | X_OK) == 0 else { throw InputError("directory '\(shown)' is not writable") }
    }
}
