import HaulCore

/// What the screen is doing besides showing the list.
public enum Mode: Equatable, Sendable {
    case list
    /// Typing a name filter on the status line; the list filters as you type.
    case filter(LineEditor)
    /// Typing the metered speed cap on the status line.
    case meteredLimit(LineEditor)
    case add(AddForm)
    /// A yes/no question on the status line.
    case confirm(Confirmation)
    case details(DownloadID)
    case help

    var isOverlay: Bool {
        switch self {
        case .add, .details, .help: return true
        case .list, .filter, .meteredLimit, .confirm: return false
        }
    }
}

public enum Confirmation: Equatable, Sendable {
    case cancel(DownloadID)
    case remove(DownloadID)
    /// Asked after `remove` for a finished download.
    case deleteFile(DownloadID)
    /// Resuming a download without the metered allowance while the network is metered.
    case allowAndResume(DownloadID)
}

/// What the controller asks the outside world to do.
public enum Effect: Equatable, Sendable {
    case send(EngineCommand)
    case quit
}

/// What changed on screen since the last frame.
public enum Damage: Equatable, Sendable {
    case none
    case rows([Int])
    case full
}
