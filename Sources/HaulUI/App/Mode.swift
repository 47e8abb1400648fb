import HaulCore

/// What the screen is doing besides showing the list.
public enum Mode: Equatable, Sendable {
    case list
    /// A line typed on the status line: a filter, a limit, a link, a command.
    case prompt(Prompt)
    case add(AddDialog)
    /// A yes/no question on the status line.
    case confirm(Confirmation)
    case details(DownloadID)
    /// A torrent's files box, over its details.
    case files(FilesPicker)
    case help
    /// Everything this session said.
    case log
    /// What happened while no UI was attached (shown once, on attaching).
    case away(AwayReport)

    var isOverlay: Bool {
        switch self {
        case .add, .details, .files, .help, .log, .away: return true
        case .list, .prompt, .confirm: return false
        }
    }

    /// The download whose details (or files) the screen shows.
    var describedID: DownloadID? {
        switch self {
        case .details(let id): return id
        case .files(let picker): return picker.id
        default: return nil
        }
    }
}

/// A line typed on the status line: what it is for, and the text so far. Every kind is edited
/// the same way (``LineEditor``); Enter gives the text to what the kind is for, Esc leaves it.
public struct Prompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A name filter: the list filters as you type, Esc clears it.
        case filter
        /// The metered speed cap.
        case meteredLimit
        /// The global speed limit, and a daily window.
        case speedLimit
        /// One download's own speed limit.
        case downloadLimit(DownloadID)
        /// A download's new link.
        case newLink(DownloadID)
        /// A command of the command-line interface, after `:`; ↑/↓ and Tab work on it.
        case command
    }

    public var kind: Kind
    public var editor: LineEditor

    public init(_ kind: Kind, _ editor: LineEditor = LineEditor()) {
        self.kind = kind
        self.editor = editor
    }
}

/// How the user left the TUI.
public enum QuitChoice: Equatable, Sendable {
    /// Nothing was running, or the question did not apply: just leave.
    case leave
    /// Keep downloading in the background (a daemon takes over).
    case background
    /// Pause what runs, then leave.
    case pause
}

/// What the controller asks the outside world to do.
public enum Effect: Equatable, Sendable {
    case send(EngineCommand)
    /// Sends the command and says `done` on the status line once the engine took it; a refusal is
    /// said instead, so the line never claims what did not happen.
    case sendThenSay(EngineCommand, done: String)
    case quit(QuitChoice)
    /// Opens a file or folder with the desktop's handler.
    case open(path: String)
    /// Runs a command line as `haul` would (`limit 2M`); `selected` is the download the list has
    /// selected, for commands that act on one.
    case runCommand(String, selected: DownloadID?)
    /// Asks the engine for the whole download the details box shows; the answer comes back
    /// through ``TUIController/describe(_:)`` (the list keeps only rows).
    case describe(DownloadID)
    /// Reads the torrent file at `path` (on the UI's machine) into the request and adds it.
    case addTorrentFile(path: String, DownloadRequest)
}

/// What changed on screen since the last frame.
public enum Damage: Equatable, Sendable {
    case none
    case rows([Int])
    case full
}
