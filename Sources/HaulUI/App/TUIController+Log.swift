import Foundation
import HaulCore

/// One thing the session said: what a key or a command did, an error, a notice of the engine.
public struct LogEntry: Equatable, Sendable {
    public var at: Date
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
        log.append(LogEntry(at: wallClock(), text: text, isError: isError))
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
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
        case .updated(let d) where stateChanged && d.state == .failed:
            report(
                "\(TerminalText.sanitize(d.displayName)) failed: \(TerminalText.sanitize(d.reason ?? ""))",
                isError: true)
        default:
            break
        }
    }

    /// The messages of the last few seconds, newest first, for the status line.
    func recentMessages(now: Date) -> [LogEntry] {
        Array(log.reversed().prefix { now.timeIntervalSince($0.at) < Self.messageLife }.prefix(3))
    }

    /// The status line forgets its message once it is older than ``messageLife``.
    func expireStatus() {
        guard status != nil, let last = log.last, wallClock().timeIntervalSince(last.at) >= Self.messageLife else {
            return
        }
        status = nil
        statusDirty = true
    }

    /// The log's lines, oldest first (the box opens at the newest).
    func logLines() -> [(String, Style)] {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        if log.isEmpty { return [("Nothing yet: what keys, commands and the engine say shows here.", .dim)] }
        return log.map { ("\(formatter.string(from: $0.at))  \($0.text)", $0.isError ? .error : .plain) }
    }
}
