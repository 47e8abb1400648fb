import FoundationEssentials
import HaulCore

/// Where the user is in the list: what it shows and in which order, what is selected, opened and
/// scrolled, and the orders worked out for the last filter and names (recomputed when the model
/// says the list changed).
public struct ListState {
    /// True until the downloads are given (the screen is up before the state is read).
    public internal(set) var isLoading = false
    public internal(set) var visible: [DownloadID] = []
    public internal(set) var sort: SortOrder = .queue
    public internal(set) var filterText = ""
    public internal(set) var selectedIndex = 0
    public internal(set) var scroll = 0
    var selectedID: DownloadID?
    /// The downloads whose rows are opened, with their lines under them.
    public internal(set) var opened: Set<DownloadID> = []
    /// What each row slot shows: which download of ``visible`` and which of its lines (0 is its
    /// row, then the lines of an opened row); nil below the list's end.
    public internal(set) var slotPlaces: [SlotPlace?] = []
    /// The first line a box (details, help, the log) shows.
    var boxScroll = 0
    /// The whole download the details box shows, as the engine last told it.
    var detailed: Download?
    /// The swarm of the torrent the details box shows (peers, trackers, files, pieces).
    var torrentDetails: TorrentDetails?
    /// The row last clicked and when, to tell a double click.
    var lastClick: (index: Int, time: Double)?
    var filterCache: (needle: String, version: Int, positions: [Int32])?
    var nameRankCache: (version: Int, ranks: [Int32])?
}

/// What the next frame must redraw, and what the last one did.
struct Redraw {
    var list = true
    var full = true
    var status = true
    /// When the list was last re-sorted and filtered (UI clock seconds).
    var lastResort = -Double.infinity
    /// When rows waiting to retry were last redrawn for their countdown.
    var lastCountdown = -Double.infinity
    /// What the last frame did (the benchmark reports it for its slowest frame).
    var lastFrame = FrameReport()
}

/// Speeds over time, for the header's graph and the details.
public struct SpeedGraphs {
    /// The total speed over the last minute.
    public internal(set) var total = SpeedHistory(.window, capacity: 60)
    /// Each running (or once running) download's speed over its life.
    public internal(set) var lives: [DownloadID: SpeedHistory] = [:]
    /// Each connection's speed over the last minute, by the start of its piece, for a download
    /// fetched in pieces (kept while it runs).
    public internal(set) var pieces: [DownloadID: [Int64: SpeedHistory]] = [:]
    var lastSample = -Double.infinity
    /// The list's bytes over the last few seconds, and their rate at the last sample.
    var arrivals = ArrivalRate()
    var arrivalRate = 0.0

    /// What the header says is moving: the running downloads' speeds, or the list's bytes over
    /// the last seconds when more (small files end before their own speed is measured); nothing
    /// once none runs.
    func current(_ model: DownloadListModel) -> Double {
        model.count(.downloading) == 0 ? 0 : max(model.totalSpeed, arrivalRate)
    }
}

/// What the session said: the status line until the next key, and the log of everything.
struct Messages {
    var status: (text: String, isError: Bool)?
    /// Everything this session said, oldest first (see `TUIController+Log.swift`).
    var log: [LogEntry] = []

    /// The local time of a log entry as it is recorded: `14:02:09`.
    static func clockText(_ date: Date) -> String {
        let c = LocalZone.system.civil(date)
        return [c.hour, c.minute, c.second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }
}

/// The `:` command line's history and the names Tab completes.
struct CommandLineState {
    /// Command lines typed after `:`, oldest first, and where ↑/↓ is in them.
    var history: [String] = []
    var position = 0
    /// The commands Tab completes (the backend's, as `haul` names them).
    var names: [String] = []
}

/// What the controller is told once about where it runs.
struct Surroundings {
    let glyphs: Glyphs
    /// Whether quitting with downloads running offers to keep them going in the background.
    let asksToKeepRunning: Bool
    let defaultDirectory: String
    let home: String
    /// Where downloads added without a folder go, shown in the add dialog as the URL is typed.
    let folderRules: FolderRules
}
