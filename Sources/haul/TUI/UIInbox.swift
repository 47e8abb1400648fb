import HaulCore
import Synchronization

/// What other threads hand to the UI thread: engine events and the outcome of commands.
enum UIMessage: Sendable {
    /// The engine is ready (the screen was up before): its downloads, and what happened while away.
    case attached(any EngineSession, EngineSnapshot, away: AwayReport?)
    /// The engine could not be reached; the UI ends and the message is printed.
    case failed(String)
    case event(EngineEvent)
    /// The name order, computed on a worker thread for this version of the names.
    case nameRanks([Int32], version: Int)
    case report(String, isError: Bool)
    /// The whole download the details box asked for (nil: the engine no longer has it).
    case described(Download?, id: DownloadID)
    /// A torrent's files, peers, trackers and pieces for the details box (nil: not running).
    case torrentDescribed(TorrentDetails?, id: DownloadID)
    /// The engine's event stream ended.
    case engineStopped
}

/// A queue the engine side fills and the UI thread drains once per loop turn.
final class UIInbox: Sendable {
    private let queue = Mutex<[UIMessage]>([])
    private let stop = Atomic<Bool>(false)

    /// Asks the UI loop to end (from a signal handler's queue).
    func requestStop() { stop.store(true, ordering: .relaxed) }

    var stopRequested: Bool { stop.load(ordering: .relaxed) }

    func push(_ message: UIMessage) {
        queue.withLock { $0.append(message) }
    }

    func drain() -> [UIMessage] {
        queue.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
    }
}
