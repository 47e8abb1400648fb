import CLinux
import FoundationEssentials
import Glibc
import HaulCore
import HaulEngine
import HaulRPCClient
import HaulTerminal
import HaulUI

/// The UI thread: the one thread that owns the terminal. It reads keys, drains the inbox,
/// and draws at most ~15 frames a second, and only when something changed.
final class UILoop {
    static let frameInterval = 1.0 / 15

    private let terminal: CursesTerminal
    private let controller: TUIController
    private let inbox: UIInbox
    /// Nil until the engine is attached; keys typed before then wait in ``earlyKeys``.
    private var engine: (any EngineSession)?
    /// When the details box last asked for a torrent's details (process seconds).
    private var lastTorrentDetails = -Double.infinity
    private var earlyKeys: [Key] = []
    private var rankingInFlight = false
    private var running = true
    private var exit = UIExit.signal

    init(terminal: CursesTerminal, controller: TUIController, inbox: UIInbox) {
        self.terminal = terminal
        self.controller = controller
        self.inbox = inbox
    }

    /// Runs until the user quits, a signal asks to stop, or the engine's owner goes away.
    func run() -> UIExit {
        _ = haul_name_this_thread("haul-ui") // the benchmark finds the UI thread by its name
        // The clock starts near zero when the process does: no frame yet means the first is due.
        var lastFrame = -Double.infinity
        var trace = FrameTrace(path: ProcessInfo.processInfo.environment["HAUL_TRACE"])
        defer { trace.write() }
        var lastActivity = -Double.infinity
        var listArrived = false
        /// Keys (their first few names) and engine events taken since the last frame (for the trace).
        var inputs = (keys: 0, keyNames: [String](), events: 0)
        /// Counts (and, when tracing, names) `key`, then handles it.
        func take(_ key: Key) {
            inputs.keys += 1
            if trace.isOn, inputs.keyNames.count < 8 { inputs.keyNames.append(Self.traceName(key)) }
            handle(key)
        }
        while running {
            let messages = inbox.drain()
            if !messages.isEmpty { lastActivity = ProcessClock.seconds() }
            for message in messages {
                switch message {
                case .attached(let session, let snapshot, let away):
                    engine = session
                    listArrived = true
                    do {
                        try controller.load(
                            snapshot.downloads, network: snapshot.network, connections: snapshot.connections)
                    } catch {
                        running = false
                        exit = .failed("haul could not read the list of downloads sent by the haul that owns the state")
                    }
                    if let away { controller.showAway(away) }
                    let keys = earlyKeys
                    earlyKeys = []
                    for key in keys where running { handle(key) }
                case .failed(let message):
                    running = false
                    exit = .failed(message)
                case .nameRanks(let ranks, let version):
                    controller.adoptNameRanks(ranks, version: version)
                    rankingInFlight = false
                case .event(let event):
                    controller.apply(event)
                    inputs.events += 1
                case .report(let text, let isError): controller.report(text, isError: isError)
                case .described(let download, let id): controller.describe(download, id: id)
                case .torrentDescribed(let details, let id): controller.describeTorrent(details, id: id)
                case .engineStopped:
                    running = false
                    exit = .ownerStopped
                }
            }
            if inbox.stopRequested {
                running = false
                exit = .signal
            }
            prepareNameOrder()
            refreshTorrentDetails()
            // Drawn before waiting for keys: the first frame goes out at once.
            let now = ProcessClock.seconds()
            // The frame that first shows the list goes out at once, not at the next interval.
            if now - lastFrame >= Self.frameInterval || listArrived {
                let start = trace.isOn ? FrameTrace.Clocks.now() : nil
                let damage = controller.frame(now: now)
                if damage != .none {
                    terminal.draw(controller.grid, damage)
                    lastFrame = now
                    if let start {
                        let keys = inputs.keyNames.isEmpty ? "" : "(\(inputs.keyNames.joined(separator: "+")))"
                        let what =
                            "\(controller.lastFrameReport.summary),keys=\(inputs.keys)\(keys),events=\(inputs.events)"
                        trace.frame(from: start, to: FrameTrace.Clocks.now(), showsList: listArrived, what: what)
                    }
                    inputs = (0, [], 0)
                    listArrived = false
                }
            }
            guard running else { break }
            // Short waits while events flow, shorter while the list is on its way (nothing wakes
            // a wait when it arrives), long ones when idle: near-zero CPU at rest.
            let idle = engine != nil && ProcessClock.seconds() - lastActivity > 1
            if let key = terminal.readKey(milliseconds: engine == nil ? 5 : idle ? 500 : 50) {
                lastActivity = ProcessClock.seconds()
                take(key)
                // A paste arrives as a burst: take it all before drawing.
                var burst = 0
                while running, burst < 4096, let more = terminal.readKey(milliseconds: 0) {
                    take(more)
                    burst += 1
                }
            }
        }
        return exit
    }

    /// While the details box shows a torrent, its peers, trackers, files and pieces are asked
    /// for again once a second.
    private func refreshTorrentDetails() {
        guard let engine, let id = controller.torrentInDetails else { return }
        let now = ProcessClock.seconds()
        // Once a second; a torrent of many files less often (every 20,000 files a second more),
        // as reading them all costs the engine about as much each time.
        guard now - lastTorrentDetails >= 1 + Double(controller.torrentFileCount / 20_000) else { return }
        lastTorrentDetails = now
        let inbox = self.inbox
        Task { inbox.push(.torrentDescribed(try? await engine.torrentDetails(id), id: id)) }
    }

    /// A key as the trace names it: one word without spaces, commas or parentheses.
    private static func traceName(_ key: Key) -> String {
        switch key {
        case .character(let c) where c.isASCII && (c.isLetter || c.isNumber || "/?.-_".contains(c)): return String(c)
        case .character(let c): return c.unicodeScalars.map { "U+\(String($0.value, radix: 16))" }.joined()
        case .control(let c): return "C-" + (c.isASCII && c.isLetter ? String(c) : "?")
        default: return "\(key)"
        }
    }

    /// Sorting 100,000 names takes longer than a frame: a worker does it ahead of time, so
    /// choosing the name order later costs only an integer sort.
    private func prepareNameOrder() {
        guard engine != nil, !rankingInFlight, let request = controller.nameRankRequest else { return }
        rankingInFlight = true
        let inbox = self.inbox
        DetachedThread.start {
            let ranks = ListOrdering.nameRanks(request.searchKeyList)
            inbox.push(.nameRanks(ranks, version: request.version))
        }
    }

    private func handle(_ key: Key) {
        if engine == nil, key != .resize {
            if key == .control("c") || key == .character("q") { // leaving while loading: nothing to ask yet
                running = false
                exit = .quit(.leave)
            } else {
                earlyKeys.append(key)
            }
            return
        }
        if key == .resize {
            let size = terminal.size
            controller.resize(width: size.width, height: size.height)
        }
        var commands: [(EngineCommand, done: String?)] = []
        for effect in controller.handle(key) {
            switch effect {
            case .quit(let choice):
                running = false
                exit = .quit(choice)
            case .send(let command): commands.append((command, nil))
            case .sendThenSay(let command, let done): commands.append((command, done))
            case .addTorrentFile(let path, var request):
                do throws(InputError) {
                    guard FileManager.default.fileExists(atPath: path) else {
                        throw InputError("there is no file at \(TerminalText.sanitize(path))")
                    }
                    guard let bytes = try TorrentFile.read(path) else {
                        throw InputError("\(TerminalText.sanitize(path)) is not a torrent file")
                    }
                    request.metainfo = bytes
                    commands.append((.add([request]), nil))
                } catch {
                    controller.report(error.message, isError: true)
                }
            case .open(let path):
                let inbox = self.inbox
                DesktopOpener.open(path) { inbox.push(.report($0, isError: true)) }
            case .describe(let id):
                guard let engine else { break }
                let inbox = self.inbox
                Task {
                    let download = try? await engine.download(id)
                    inbox.push(.described(download, id: id))
                    if download?.isTorrent == true {
                        inbox.push(.torrentDescribed(try? await engine.torrentDetails(id), id: id))
                    }
                }
            case .runCommand(let line, let selected):
                guard let engine else { break }
                let inbox = self.inbox
                Task {
                    let outcome = await CommandLineRunner.run(line, selected: selected, on: engine)
                    for (i, text) in outcome.lines.enumerated() {
                        // Every line goes to the log; the status line shows the last (or the error).
                        let last = i == outcome.lines.count - 1
                        inbox.push(.report(text, isError: outcome.failed && (last || text.hasPrefix("haul:"))))
                    }
                    if outcome.lines.isEmpty { inbox.push(.report(":\(line) done", isError: false)) }
                }
            }
        }
        if !commands.isEmpty { send(commands) }
    }

    /// Performs the commands in order, off the UI thread; outcomes come back through the inbox:
    /// a command's `done` once the engine took it, else why it did not.
    private func send(_ commands: [(EngineCommand, done: String?)]) {
        guard let engine else { return }
        let inbox = self.inbox
        Task {
            for (var command, done) in commands {
                do {
                    // The add dialog's URL is one the user named: netrc's login goes with it, as
                    // with `haul add` (not to another machine's engine: the logins are here).
                    if case .add(var requests) = command, !(engine is RPCSession) {
                        let netrc = NetrcFile.defaultPath(environment: ProcessInfo.processInfo.environment)
                        if let netrc, let warning = NetrcFile.warning(NetrcFile.read(netrc), path: netrc) {
                            inbox.push(.report(warning, isError: true))
                        }
                        for index in requests.indices { requests[index].login = .usualNetrc }
                        command = .add(requests)
                    }
                    let ids = try await engine.perform(command)
                    if case .add = command, let id = ids.first { inbox.push(.report("added \(id)", isError: false)) }
                    if let done { inbox.push(.report(done, isError: false)) }
                } catch {
                    inbox.push(.report((error as? InputError)?.message ?? String(describing: error), isError: true))
                    return
                }
            }
        }
    }
}

/// Why the UI loop ended.
enum UIExit: Sendable, Equatable {
    case quit(QuitChoice)
    /// SIGINT, SIGTERM or SIGHUP.
    case signal
    /// The event stream ended: the engine stopped, or the daemon serving it went away.
    case ownerStopped
    /// The engine could not be opened or reached.
    case failed(String)
}

/// When the process started (close enough: the first line of `main`), in seconds on the
/// system's monotonic clock.
enum ProcessClock {
    nonisolated(unsafe) static var start = 0.0 // set once at the top of main, before any thread exists

    /// Seconds on the system's monotonic clock (the one the engine goes by), for frame times.
    static func seconds() -> Double { SystemClock().now.seconds }
}

/// CPU time, for the frame trace (not a clock things are timed by).
enum ThreadCPUTime {
    /// CPU time the calling thread has used.
    static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
