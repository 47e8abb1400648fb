import FoundationEssentials
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
    /// What the list shows and where the user is in it.
    public internal(set) var list = ListState()
    /// What the next frame redraws.
    var redraw = Redraw()
    /// Speeds over time, for the graphs.
    public internal(set) var speeds = SpeedGraphs()
    /// The status line and the session's log.
    var messages = Messages()
    /// The `:` command line's history and completions.
    var commands = CommandLineState()
    let surroundings: Surroundings
    /// The metered-network mode and verdict, as the engine last reported them.
    public internal(set) var network: NetworkStatus
    /// The saved default of connections per download, as the engine last told it.
    public internal(set) var defaultConnections = 8
    /// True until ``load(_:network:connections:)`` gives the downloads (the screen is up before
    /// the state is read).
    public internal(set) var isLoading: Bool {
        get { list.isLoading }
        set { list.isLoading = newValue }
    }
    /// The wall clock a retry's countdown and the log's times are shown against: the engine's
    /// (`HAUL_CLOCK` and `TZ` hold for it too); tests set their own.
    public var wallClock: @Sendable () -> Date = { [clock = WallClock(environment: [:])] in clock.now() }

    public init(
        downloads: [Download], width: Int, height: Int, defaultDirectory: String, home: String, unicode: Bool = true,
        network: NetworkStatus = NetworkStatus(mode: .off), asksToKeepRunning: Bool = true,
        folderRules: FolderRules = FolderRules()
    ) {
        self.network = network
        surroundings = Surroundings(
            glyphs: unicode ? .unicode : .ascii, asksToKeepRunning: asksToKeepRunning,
            defaultDirectory: defaultDirectory, home: home, folderRules: folderRules)
        model = DownloadListModel(downloads)
        layout = ScreenLayout(width: width, height: height)
        columns = Columns.forWidth(layout.width)
        router = EventRouter(slotCount: layout.slotCount)
        grid = Grid(width: layout.width, height: layout.height)
    }

    var glyphs: Glyphs { surroundings.glyphs }

    // The parts the backend and the tests read.
    public var visible: [DownloadID] { list.visible }
    public var sort: SortOrder { list.sort }
    public var selectedIndex: Int { list.selectedIndex }
    public var opened: Set<DownloadID> { list.opened }
    public var status: (text: String, isError: Bool)? { messages.status }
    public var log: [LogEntry] { messages.log }
    /// What the last ``frame(now:)`` did (the benchmark reports it for its slowest frame).
    public var lastFrameReport: FrameReport { redraw.lastFrame }
    /// The commands Tab completes after `:` (the backend's, as `haul` names them).
    public var commandNames: [String] {
        get { commands.names }
        set { commands.names = newValue }
    }

    // MARK: Input from the engine

    public func apply(_ event: EngineEvent) {
        let changed = model.apply(event)
        if let id = mode.describedID, id == event.downloadID { keepDetailed(event) }
        router.route(event)
        recordEvent(event, stateChanged: changed)
        forgetOpened(event)
        switch event {
        case .added, .removed, .removedMany, .moved:
            redraw.list = true
        case .updated where changed && (list.sort == .state || list.sort == .name || !list.filterText.isEmpty):
            redraw.list = true
        default:
            break
        }
        if let id = mode.describedID, id == event.downloadID { redraw.full = true }
        if let id = mode.describedID, case .removedMany(let ids) = event, ids.contains(id) { redraw.full = true }
        if case .network(let status) = event {
            // The status line may warn of the budget.
            if status.budgetUsed != network.budgetUsed || status.budget != network.budget { redraw.status = true }
            // A remote engine's link: what broke it, once, and that it is back.
            if let link = status.remote, link.state != network.remote?.state {
                switch link.state {
                case .reconnecting(let problem): report(problem + "; reconnecting…", isError: true)
                case .connected where network.remote?.state != .slow && network.remote != nil:
                    report("connected to \(link.place) again")
                case .connected, .slow: break
                }
            }
            network = status
        }
    }

    /// Starts with an empty, loading list.
    public func beginLoading() {
        isLoading = true
        redraw.full = true
    }

    /// The downloads arrived: the list shows them.
    public func load(_ downloads: [Download], network: NetworkStatus, connections: Int? = nil) {
        try? load(DownloadList(downloads), network: network, connections: connections)
    }

    /// The downloads arrived: the list shows them (kept as rows only). Throws what reading them threw.
    public func load(_ downloads: DownloadList, network: NetworkStatus, connections: Int? = nil) throws {
        model = try DownloadListModel(downloads)
        self.network = network
        if let connections { defaultConnections = connections }
        isLoading = false
        list.filterCache = nil
        list.nameRankCache = nil
        redraw.list = true
        redraw.full = true
    }

    /// The whole download the details box asked for (``Effect/describe(_:)``); nil when the
    /// engine no longer has it.
    public func describe(_ download: Download?, id: DownloadID) {
        guard mode.describedID == id else { return }
        list.detailed = download
        redraw.full = true
    }

    /// A torrent's files, peers, trackers and pieces for the details box.
    public func describeTorrent(_ details: TorrentDetails?, id: DownloadID) {
        guard mode.describedID == id, details != list.torrentDetails else { return }
        list.torrentDetails = details
        redraw.full = true
    }

    /// How many files the torrent in the details box has, as last told.
    public var torrentFileCount: Int { list.torrentDetails?.files.count ?? 0 }

    /// The torrent the details box shows, if it shows one: the UI asks for its swarm each second.
    public var torrentInDetails: DownloadID? {
        guard let id = mode.describedID, list.detailed?.isTorrent == true else { return nil }
        return id
    }

    /// Keeps the download the details box shows as the engine tells of it.
    private func keepDetailed(_ event: EngineEvent) {
        switch event {
        case .added(let d), .updated(let d): list.detailed = d
        case .progress(let sample):
            list.detailed?.receivedBytes = sample.receivedBytes
            if let total = sample.totalBytes { list.detailed?.totalBytes = total }
        case .notice(_, let notice): list.detailed?.notice = notice
        case .removed, .removedMany, .network, .moved: break
        }
    }

    /// Shows a message on the status line (results and errors of commands).
    public func report(_ text: String, isError: Bool = false) {
        messages.status = (TerminalText.sanitize(text), isError)
        redraw.status = true
        record(TerminalText.sanitize(text), isError: isError)
    }

    public func resize(width: Int, height: Int) {
        layout = ScreenLayout(width: width, height: height)
        columns = Columns.forWidth(layout.width)
        grid = Grid(width: layout.width, height: layout.height)
        router.resize(slotCount: layout.slotCount)
        redraw.list = true
        redraw.full = true
    }
}
