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

/// A request to the engine. Codable so the same engine can sit behind a socket.
public enum EngineCommand: Codable, Sendable, Equatable {
    /// Adds the downloads in order, all or none: one bad request adds nothing. Answers their ids.
    case add([DownloadRequest])
    case pause(DownloadSelection)
    case resume(DownloadSelection)
    /// Stops and deletes the `.part`; finished downloads are untouched.
    case cancel(DownloadSelection)
    /// Takes downloads off the list. A finished file is deleted only when `deleteFiles` is true.
    case remove(DownloadSelection, deleteFiles: Bool)
    /// Failed or paused downloads start again; named by id, so does a finished one whose file
    /// is gone (fetched again from its first byte).
    case retry(DownloadSelection)
    case setConcurrency(Int)
    case setMeteredMode(MeteredMode)
    /// Bytes per second for allowed downloads while metered; nil removes the cap.
    case setMeteredLimit(Int64?)
    /// Sets the most connections per download: of the downloads selected, or (nil) the saved
    /// default for downloads that have no number of their own. A selected torrent's count is
    /// its most peers (``PeerLimit/from(_:)``: 0 for none).
    case setConnections(DownloadSelection?, Int)
    /// Gives a download a new address and keeps its bytes while the new one serves the same file
    /// (see ``Download/changeLink(to:)``).
    case refresh(DownloadID, url: String)
    /// Gives unfinished downloads the options of new requests for the same URL and folder, and
    /// keeps their bytes (see ``Download/renew(with:)``): `haul URL` run again with other options.
    /// Answers the downloads that changed.
    case renew([Renewal])
    /// Sets (or, nil, forgets) the cookies.txt file of downloads added without one of their own.
    case setCookieFile(String?)
    /// Gives (or takes) downloads the allowance to use a metered network.
    case allowMetered(DownloadSelection, Bool)
    /// Sets (or, nil, lifts) the global speed limit.
    case setSpeedLimit(SpeedLimit?)
    /// Sets (or, nil, lifts) the speed limit of each download selected.
    case setDownloadSpeedLimit(DownloadSelection, Int64?)
    /// Sets (or, nil, lifts) the upload limit of each torrent selected (the global one is in the
    /// BitTorrent settings).
    case setUploadLimit(DownloadSelection, Int64?)
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
    /// Saves the BitTorrent settings (nil: the defaults) and applies them to the running session.
    case setTorrentSettings(TorrentSettings?)
    /// Sets which files of a torrent are fetched (aria2's `select-file`).
    case selectFiles(DownloadID, FileSelection?)
    /// Gives the selected torrents their own seed ratio or time (the goal's parts over theirs); one
    /// that seeds now follows it at once.
    case setSeedGoal(DownloadSelection, SeedGoal)
    /// A command follows these downloads until they are done: the haul that owns the state runs
    /// them now, even a `haul URL` that otherwise runs only its own. Answers the ids it knows.
    case follow([DownloadID])
}

/// A download and the request whose options it takes (``EngineCommand/renew(_:)``).
public struct Renewal: Codable, Sendable, Equatable {
    public var id: DownloadID
    public var request: DownloadRequest

    public init(id: DownloadID, request: DownloadRequest) {
        self.id = id
        self.request = request
    }
}

/// Where ``EngineCommand/move(_:_:)`` puts a download in the list.
public enum QueueMove: String, Codable, Sendable, CaseIterable {
    case top, bottom, up, down
}
