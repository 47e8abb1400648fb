import HaulCore

/// The notifications aria2 sends over WebSocket, and which a change of a download's state is.
public enum Aria2Notification {
    public static let start = "aria2.onDownloadStart"
    public static let pause = "aria2.onDownloadPause"
    public static let stop = "aria2.onDownloadStop"
    public static let complete = "aria2.onDownloadComplete"
    public static let error = "aria2.onDownloadError"
    public static let btComplete = "aria2.onBtDownloadComplete"

    public static let all = [start, pause, stop, complete, error, btComplete]

    /// The notification for a download now in `new` that was in `old` (nil: not known before);
    /// nil when there is none (unchanged, or back to waiting: aria2 says nothing until it starts).
    public static func forChange(from old: DownloadState.Kind?, to new: DownloadState.Kind) -> String? {
        guard old != new else { return nil }
        switch new {
        case .downloading: return start
        case .paused: return pause
        case .finished: return complete
        case .failed: return error
        case .waiting: return nil
        }
    }
}
