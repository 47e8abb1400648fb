import Foundation
import HaulCore

/// The whole TUI as pure logic: it takes engine events and keys, keeps the screen model,
/// binds row slots through the ``EventRouter``, and renders frames into a ``Grid``.
/// The terminal backend only copies the damaged rows and feeds keys in.
public final class TUIController {
    public internal(set) var model: DownloadListModel
    public internal(set) var router: EventRouter
    public internal(set) var grid: Grid
    public internal(set) var layout: ScreenLayout
    public internal(set) var columns: Columns
    public internal(set) var mode: Mode = .list
    public internal(set) var visible: [DownloadID] = []
    public internal(set) var sort: SortOrder = .queue
    public internal(set) var filterText = ""
    public internal(set) var selectedIndex = 0
    public internal(set) var scroll = 0
    /// The line shown on the status row until the next key.
    public internal(set) var status: (text: String, isError: Bool)?
    /// The metered-network mode and verdict, as the engine last reported them.
    public internal(set) var network: NetworkStatus
    /// The saved default of connections per download, as the engine last told it.
    public internal(set) var defaultConnections = 8

    let glyphs: Glyphs
    /// Whether quitting with downloads running offers to keep them going in the background.
    let asksToKeepRunning: Bool
    let defaultDirectory: String
    let home: String
    var selectedID: DownloadID?
    var listDirty = true
    var lastResort = -Double.infinity
    var fullRedraw = true
    var statusDirty = true
    var filterCache: (needle: String, version: Int, positions: [Int32])?
    var nameRankCache: (version: Int, ranks: [Int32])?
    /// What the last ``frame(now:)`` did (the benchmark reports it for its slowest frame).
    public internal(set) var lastFrameReport = FrameReport()
    /// The wall clock a retry's countdown is shown against (tests set their own).
    public var wallClock: @Sendable () -> Date = { Date() }
    /// When rows waiting to retry were last redrawn for their countdown (monotonic seconds).
    var lastCountdown = -Double.infinity
    /// The total speed over the last minute, for the header's graph.
    public internal(set) var totalHistory = SpeedHistory(.window, capacity: 60)
    /// Each running (or once running) download's speed over its life, for the details view.
    public internal(set) var lifeHistories: [DownloadID: SpeedHistory] = [:]
    /// Each connection's speed over the last minute, by the start of its piece, for the details
    /// of a download fetched in pieces (kept while it runs).
    public internal(set) var pieceHistories: [DownloadID: [Int64: SpeedHistory]] = [:]
    var lastSpeedSample = -Double.infinity
    /// Everything this session said, oldest first (see `TUIController+Log.swift`).
    public internal(set) var log: [LogEntry] = []
    /// Formats the time of each log entry as it is recorded.
    lazy var clockFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()
    /// Command lines typed after `:`, oldest first, and where ↑/↓ is in them.
    var commandHistory: [String] = []
    var historyPosition = 0
    /// The commands Tab completes after `:` (the backend's, as `haul` names them).
    public var commandNames: [String] = []
    /// The downloads whose rows are opened, with their lines under them.
    public internal(set) var opened: Set<DownloadID> = []
    /// What each row slot shows: which download of ``visible`` and which of its lines (0 is its
    /// row, then the lines of an opened row); nil below the list's end.
    public internal(set) var slotPlaces: [SlotPlace?] = []
    /// The first line a box (details, help, the log) shows.
    var boxScroll = 0
    /// The row last clicked and when, to tell a double click.
    var lastClick: (index: Int, time: Double)?

    public init(
        downloads: [Download], width: Int, height: Int, defaultDirectory: String, home: String, unicode: Bool = true,
        network: NetworkStatus = NetworkStatus(mode: .off), asksToKeepRunning: Bool = true
    ) {
        self.network = network
        self.asksToKeepRunning = asksToKeepRunning
        model = DownloadListModel(downloads)
        layout = ScreenLayout(width: width, height: height)
        columns = Columns.forWidth(layout.width)
        router = EventRouter(slotCount: layout.slotCount)
        grid = Grid(width: layout.width, height: layout.height)
        glyphs = unicode ? .unicode : .ascii
        self.defaultDirectory = defaultDirectory
        self.home = home
    }

    // MARK: Input from the engine

    public func apply(_ event: EngineEvent) {
        let changed = model.apply(event)
        router.route(event)
        recordEvent(event, stateChanged: changed)
        forgetOpened(event)
        switch event {
        case .added, .removed, .removedMany, .moved:
            listDirty = true
        case .updated where changed && (sort == .state || sort == .name || !filterText.isEmpty):
            listDirty = true
        default:
            break
        }
        if case .details(let id) = mode, id == event.downloadID { fullRedraw = true }
        if case .details(let id) = mode, case .removedMany(let ids) = event, ids.contains(id) { fullRedraw = true }
        if case .network(let status) = event {
            // The status line may warn of the budget.
            if status.budgetUsed != network.budgetUsed || status.budget != network.budget { statusDirty = true }
            network = status
        }
    }

    /// True until ``load(_:network:)`` gives the downloads (the screen is up before the state is read).
    public internal(set) var isLoading = false

    /// Starts with an empty, loading list.
    public func beginLoading() {
        isLoading = true
        fullRedraw = true
    }

    /// The downloads arrived: the list shows them.
    public func load(_ downloads: [Download], network: NetworkStatus, connections: Int? = nil) {
        model = DownloadListModel(downloads)
        self.network = network
        if let connections { defaultConnections = connections }
        isLoading = false
        filterCache = nil
        nameRankCache = nil
        listDirty = true
        fullRedraw = true
    }

    /// Shows a message on the status line (results and errors of commands).
    public func report(_ text: String, isError: Bool = false) {
        status = (TerminalText.sanitize(text), isError)
        statusDirty = true
        record(TerminalText.sanitize(text), isError: isError)
    }

    public func resize(width: Int, height: Int) {
        layout = ScreenLayout(width: width, height: height)
        columns = Columns.forWidth(layout.width)
        grid = Grid(width: layout.width, height: layout.height)
        router.resize(slotCount: layout.slotCount)
        listDirty = true
        fullRedraw = true
    }
}
