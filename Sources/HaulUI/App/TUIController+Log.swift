import FoundationEssentials
import HaulCore

/// One thing the session said: what a key or a command did, an error, a notice of the engine.
public struct LogEntry: Equatable, Sendable {
    public var at: Date
    /// `at` as the log shows it (`HH:mm:ss`, local time), formatted once when recorded.
    public var clock: String
    public var text: String
    public var isError: Bool
}

/// The status line keeps the last few messages for ``messageLife`` seconds; `v` opens the log of
/// everything this session said, engine notices included.
extension TUIController {
    /// Seconds a message stays on the status line.
    static let messageLife = 5.0
    /// The most entries the log keeps.
    static let logLimit = 1000

    func record(_ text: String, isError: Bool) {
        let now = wallClock()
        messages.log.append(
            LogEntry(at: now, clock: Messages.clockText(now), text: text, isError: isError))
        if messages.log.count > Self.logLimit { messages.log.removeFirst(messages.log.count - Self.logLimit) }
    }

    /// What the engine says that a person would want in the log: notices, finishes, failures.
    /// Notices and failures show on the status line too.
    func recordEvent(_ event: EngineEvent, stateChanged: Bool) {
        switch event {
        case .notice(let id, let notice):
            let name = model[id].map { TerminalText.sanitize($0.displayName) } ?? id.rawValue
            report("\(name): \(ReasonText.notice(notice, now: wallClock()))")
        case .updated(let d) where stateChanged && d.state == .finished:
            record("\(TerminalText.sanitize(d.displayName)) finished", isError: false)
        case .updated(let d) where stateChanged && d.state.isFailed:
            report(
                "\(TerminalText.sanitize(d.displayName)) failed: \(TerminalText.sanitize(d.reason ?? ""))",
                isError: true)
        default:
            break
        }
    }

    /// The messages of the last few seconds, newest first, for the status line.
    func recentMessages(now: Date) -> [LogEntry] {
        Array(messages.log.reversed().prefix { now.timeIntervalSince($0.at) < Self.messageLife }.prefix(3))
    }

    /// The status line forgets its message once it is older than ``messageLife``.
    func expireStatus() {
        guard messages.status != nil, let last = messages.log.last,
            wallClock().timeIntervalSince(last.at) >= Self.messageLife
        else {
            return
        }
        messages.status = nil
        redraw.status = true
    }

    /// The log's lines, oldest first (the box opens at the newest). Built at every frame the log
    /// box is drawn, so nothing here formats a date.
    func logLines() -> [(String, Style)] {
        if messages.log.isEmpty { return [("Nothing yet: what keys, commands and the engine say shows here.", .dim)] }
        return messages.log.map { ("\($0.clock)  \($0.text)", $0.isError ? .error : .plain) }
    }
}
