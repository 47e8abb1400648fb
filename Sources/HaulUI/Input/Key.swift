import HaulCore

/// A key press, as the backend decodes it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Ctrl plus a letter, e.g. `.control("u")`.
    case control(Character)
    case resize
    case mouse(MouseEvent)
}

/// A mouse event on a cell of the screen (0-based).
public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case press, release, wheelUp, wheelDown, rightPress
        /// Two clicks the terminal library already joined.
        case doubleClick
    }

    public var kind: Kind
    public var row: Int
    public var column: Int

    public init(_ kind: Kind, row: Int, column: Int) {
        self.kind = kind
        self.row = row
        self.column = column
    }
}

/// What a key asks for in the list.
public enum ListAction: Equatable, Sendable {
    case moveUp, moveDown, pageUp, pageDown, top, bottom
    case add, togglePause, cancel, remove, retry, togglePauseAll
    case filter, cycleSort, details, help, quit
    case cycleMetered, toggleAllowMetered, setMeteredLimit
    case moreConnections, fewerConnections
    case setSpeedLimit, setDownloadLimit
    case newLink
    case openFile, openFolder
    /// Opens or closes the selected row (its lines under it), or opens / closes it outright.
    case toggleRow, openRow, closeRow
    case commandLine, showLog
    case moveInQueue(QueueMove)
}

/// The list's key bindings (htop/tig habits).
public enum KeyMap {
    public static func action(for key: Key) -> ListAction? {
        switch key {
        case .up, .character("k"): return .moveUp
        case .down, .character("j"): return .moveDown
        case .pageUp, .control("b"): return .pageUp
        case .pageDown, .control("f"): return .pageDown
        case .home, .character("g"): return .top
        case .end, .character("G"): return .bottom
        case .character("a"): return .add
        case .character("p"), .character(" "): return .togglePause
        case .character("c"): return .cancel
        case .character("d"), .delete: return .remove
        case .character("r"): return .retry
        case .character("P"): return .togglePauseAll
        case .character("/"): return .filter
        case .character("s"): return .cycleSort
        case .enter: return .details
        case .character("?"), .character("h"): return .help
        case .character("q"), .control("c"): return .quit
        case .character("m"): return .cycleMetered
        case .character("M"): return .toggleAllowMetered
        case .character("L"): return .setMeteredLimit
        case .character("+"), .character("="): return .moreConnections
        case .character("-"): return .fewerConnections
        case .character("b"): return .setSpeedLimit
        case .character("l"): return .setDownloadLimit
        case .character("u"): return .newLink
        case .character("x"): return .toggleRow
        case .right: return .openRow
        case .left: return .closeRow
        case .character("o"): return .openFile
        case .character("O"): return .openFolder
        case .character(":"): return .commandLine
        case .character("v"): return .showLog
        case .character("K"): return .moveInQueue(.up)
        case .character("J"): return .moveInQueue(.down)
        case .character("T"): return .moveInQueue(.top)
        case .character("B"): return .moveInQueue(.bottom)
        default: return nil
        }
    }

    /// The help screen: key, meaning.
    public static let help: [(String, String)] = [
        ("↑/↓  j/k", "move the selection"),
        ("PgUp/PgDn", "page up / down"),
        ("g / G", "first / last download"),
        ("a", "add a URL, magnet link or .torrent file (Tab: URL, directory, name)"),
        ("p or space", "pause / resume the selected download"),
        ("c", "cancel the selected download (asks; deletes its partial data)"),
        ("d", "remove from the list (asks; asks again before deleting a finished file)"),
        ("r", "retry a failed download"),
        ("u", "a new link for the selected download (bytes kept if the same file)"),
        ("P", "pause all / resume all"),
        ("/", "filter by name (Esc clears)"),
        ("s", "sort: queue (the list's own order), name, progress, speed, state"),
        ("K / J", "move the selected download up / down the queue"),
        ("T / B", "move it to the top / bottom (waiting downloads start from the top)"),
        ("Enter", "details of the selected download"),
        ("f", "in a torrent's details: its files; Space fetches or skips one, a all"),
        ("x  → / ←", "open / close the selected row: its pieces, connections and last notice"),
        ("o / O", "open the finished file / its folder with the desktop's handler (xdg-open)"),
        ("m", "metered network: off → on → auto (NetworkManager)"),
        ("M", "allow / forbid the selected download on a metered network"),
        ("L", "speed cap for allowed downloads while metered"),
        ("b", "speed limit for all downloads (e.g. 2M, or 2M 08:00-23:00)"),
        ("l", "speed limit for the selected download"),
        ("+ / -", "more / fewer connections (1-32) or a torrent's peers"),
        (":", "command line: haul's commands (:limit 2M, :move top, :refresh URL); ↑/↓ history, Tab"),
        ("v", "the log: everything this session said (notices, errors, what keys did)"),
        ("?", "this help"),
        ("q", "quit; asks whether running downloads go on in the background"),
    ]
}
