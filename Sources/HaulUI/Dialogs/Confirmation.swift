import HaulCore

/// A yes/no question on the status line: what it asks, and what each answer does. The
/// controller shows the question and carries out the answer's outcome.
public enum Confirmation: Equatable, Sendable {
    case cancel(DownloadID)
    case remove(DownloadID)
    /// Asked after `remove` for a finished download.
    case deleteFile(DownloadID)
    /// Resuming a download without the metered allowance while the network is metered.
    case allowAndResume(DownloadID)
    /// Quitting while downloads run: keep them going in the background?
    case quitWhileRunning(count: Int)

    /// What the question reads from around it.
    struct Context {
        /// A download's name as shown, its id when the list no longer has it.
        let name: (DownloadID) -> String
        /// The finished file a removal could delete, when it is this machine's to delete.
        let deletableFile: (DownloadID) -> String?
    }

    /// What an answer leads to.
    enum Outcome: Equatable {
        /// Back to the list with `message`, after sending `commands`.
        case done(message: String?, [EngineCommand])
        /// Another question follows.
        case ask(Confirmation)
        case quit(QuitChoice)
    }

    /// The question as the status line shows it (names made safe for the terminal).
    func text(in context: Context) -> String {
        switch self {
        case .cancel(let id): return "Cancel \(context.name(id)) and delete its partial data? [y/N]"
        case .remove(let id): return "Remove \(context.name(id)) from the list? [y/N]"
        case .deleteFile(let id):
            let path = context.deletableFile(id).map { TerminalText.sanitize($0) } ?? ""
            return "Also delete the file \(path)? [y/N] (N keeps it)"
        case .allowAndResume(let id):
            return "The network is metered. Allow \(context.name(id)) on metered networks and resume it? [y/N]"
        case .quitWhileRunning(let count):
            let what = count == 1 ? "1 download is" : "\(count) downloads are"
            return "\(what) running. Keep downloading in the background? [y]es · [n]o, pause · Esc stays"
        }
    }

    /// The answer `key` gives: y/Y says yes, anything else no (for quitting, n/N pauses and any
    /// other key stays).
    func answer(_ key: Key, in context: Context) -> Outcome {
        let yes = key == .character("y") || key == .character("Y")
        if case .quitWhileRunning = self {
            if yes { return .quit(.background) }
            if key == .character("n") || key == .character("N") { return .quit(.pause) }
            return .done(message: "still here", [])
        }
        guard yes else {
            if case .deleteFile(let id) = self {
                return .done(
                    message: "removed from the list; the file was kept", [.remove(.ids([id]), deleteFiles: false)])
            }
            return .done(message: "nothing changed", [])
        }
        switch self {
        case .cancel(let id):
            return .done(message: nil, [.cancel(.ids([id]))])
        case .remove(let id):
            if context.deletableFile(id) != nil { return .ask(.deleteFile(id)) }
            return .done(message: nil, [.remove(.ids([id]), deleteFiles: false)])
        case .deleteFile(let id):
            return .done(message: nil, [.remove(.ids([id]), deleteFiles: true)])
        case .allowAndResume(let id):
            return .done(message: nil, [.allowMetered(.ids([id]), true), .resume(.ids([id]))])
        case .quitWhileRunning:
            return .done(message: nil, [])
        }
    }
}
