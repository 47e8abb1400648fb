/// Which downloads a command applies to.
public enum DownloadSelection: Codable, Sendable, Equatable {
    case all
    case ids([DownloadID])
}

/// Where the login for a new download's URL comes from.
public enum LoginSource: Codable, Sendable, Equatable {
    /// The engine's user's usual netrc file (`NETRC`, else `~/.netrc`), when there is one.
    case usualNetrc
    /// This netrc file (absolute).
    case netrcFile(String)
}

/// What a door (a command, the UI, an RPC client, a Metalink) asks for a new download. The
/// engine resolves every request through one add path (`AddPath`), so what a door leaves out is
/// decided the same way whoever asked.
public struct AddRequest: Codable, Sendable, Equatable {
    public var url: String
    /// Absolute directory, created when missing; empty: none was chosen, so the folder rules
    /// decide, else the download directory.
    public var directory: String
    public var fileName: String?
    public var headers: [RequestHeader]
    /// The digest the finished file must have.
    public var checksum: Checksum?
    public var allowMetered: Bool
    public var paused: Bool
    /// Most connections for the download; nil: the saved default.
    public var connections: Int?
    /// Its own speed limit in bytes per second; nil for none.
    public var speedLimit: Int64?
    /// A cookies.txt file (absolute); nil: the saved default.
    public var cookieFile: String?
    /// Further places to fetch the same file from.
    public var mirrors: [DownloadSource]?
    /// Hashes of the file's pieces (from a Metalink).
    public var pieceHashes: PieceHashes?
    /// `--no-mirrors`: mirrors and digests servers name in headers are not used.
    public var ignoresMirrorHeaders: Bool?
    /// Where the login for the URL's host comes from, set by whoever adds a URL a person or a
    /// client named (`haul add`, the UI, `aria2.addUri`): nil for URLs a server or a Metalink
    /// named. Never used for a mirror or a redirect to another host.
    public var login: LoginSource?
    /// `--proxy`: its own proxy, or none; nil follows the saved ones and the environment.
    public var proxy: ProxyChoice?

    public init(
        url: String, directory: String, fileName: String? = nil, headers: [RequestHeader] = [],
        checksum: Checksum? = nil, allowMetered: Bool = false, paused: Bool = false, connections: Int? = nil,
        speedLimit: Int64? = nil, cookieFile: String? = nil
    ) {
        self.cookieFile = cookieFile
        self.speedLimit = speedLimit
        self.connections = connections
        self.url = url
        self.directory = directory
        self.fileName = fileName
        self.headers = headers
        self.checksum = checksum
        self.allowMetered = allowMetered
        self.paused = paused
    }
}

/// A request to the engine. Codable so the same engine can sit behind a socket.
public enum EngineCommand: Codable, Sendable, Equatable {
    /// Adds the downloads in order, all or none: one bad request adds nothing. Answers their ids.
    case add([AddRequest])
    case pause(DownloadSelection)
    case resume(DownloadSelection)
    /// Stops and deletes the `.part`; finished downloads are untouched.
    case cancel(DownloadSelection)
    /// Takes downloads off the list. A finished file is deleted only when `deleteFiles` is true.
    case remove(DownloadSelection, deleteFiles: Bool)
    case retry(DownloadSelection)
    case setConcurrency(Int)
    case setMeteredMode(MeteredMode)
    /// Bytes per second for allowed downloads while metered; nil removes the cap.
    case setMeteredLimit(Int64?)
    /// Sets the most connections per download: of the downloads selected, or (nil) the saved
    /// default for downloads that have no number of their own.
    case setConnections(DownloadSelection?, Int)
    /// Gives a download a new address and keeps its bytes while the new one serves the same file
    /// (see ``Download/changeLink(to:)``).
    case refresh(DownloadID, url: String)
    /// Sets (or, nil, forgets) the cookies.txt file of downloads added without one of their own.
    case setCookieFile(String?)
    /// Gives (or takes) downloads the allowance to use a metered network.
    case allowMetered(DownloadSelection, Bool)
    /// Sets (or, nil, lifts) the global speed limit.
    case setSpeedLimit(SpeedLimit?)
    /// Sets (or, nil, lifts) the speed limit of each download selected.
    case setDownloadSpeedLimit(DownloadSelection, Int64?)
    /// Sets (or, nil, lifts) the metered data budget.
    case setMeteredBudget(DataBudget?)
    /// Moves downloads in the list, which is the order waiting downloads start in.
    case move(DownloadSelection, QueueMove)
    /// Moves a download to just before another in the list (nil: to the end of it).
    case moveBefore(DownloadID, DownloadID?)
    /// Saves (or, nil, removes) the aria2-compatible RPC endpoint's settings; the haul that owns
    /// the state serves it while they exist.
    case setRPC(RPCSettings?)
    /// Saves (or, nil, removes) the hooks the haul that owns the state runs. Never sent by the
    /// RPC endpoint.
    case setHooks(HookSettings?)
    /// Saves the proxies (global and per host); nil removes them all.
    case setProxies(ProxySettings?)
    /// Saves the per-host connections, speed limits and headers; nil removes them all.
    case setHostSettings(HostSettings?)
}

/// Where ``EngineCommand/move(_:_:)`` puts a download in the list.
public enum QueueMove: String, Codable, Sendable, CaseIterable {
    case top, bottom, up, down
}
