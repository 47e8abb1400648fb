import FoundationEssentials

/// The words for every reason the engine reports: the one place that turns ``FailureReason``,
/// ``Notice`` and ``StartOverReason`` values into sentences for the TUI, `haul run` and `haul ls`.
public enum ReasonText {
    public static func failure(_ reason: FailureReason) -> String {
        switch reason {
        case .status(let status): return HTTPStatusReason.describe(status)
        case .noContent: return "the server sent no content (HTTP 204)"
        case .redirectWithoutLocation(let status): return "the server redirected without a location (HTTP \(status))"
        case .invalidRedirect: return "the server redirected to an invalid location"
        case .redirectToScheme(let scheme):
            return "the server redirected to an unsupported scheme '\(TerminalText.sanitize(scheme))'; refused"
        case .tooManyRedirects(let limit): return "too many redirects (more than \(limit))"
        case .startedOverTooOften(let why): return startOver(why) + " too often"
        case .completeWithoutFile: return "the server says the file is complete, but nothing was downloaded"
        case .closedEarly(let received, let expected):
            return "the connection closed early (\(received) of \(expected) bytes)"
        case .bodyCutShort: return "the connection closed before the body was complete"
        case .serverClosedConnection: return "the server closed the connection"
        case .stalled(let seconds): return "stalled: no data for \(seconds) s"
        case .cannotConnect(let host, let port, let why):
            return "cannot connect to \(TerminalText.sanitize(host)):\(port): \(why)"
        case .connectionFailed(let text): return text
        case .rangesRefused: return "the server sent the whole file instead of the range asked for"
        case .wrongRange(let asked, let got):
            let shown = TerminalText.sanitize(got)
            return "the server sent another range than the one asked for (asked \(asked), got \(shown))"
        case .malformedResponse(let what): return "malformed response from the server (\(TerminalText.sanitize(what)))"
        case .requestHeaderRefused:
            return "a request header holds a line break or another character HTTP does not allow"
        case .tls(let text): return text
        case .diskFull(let shortfall):
            return "disk full — needs " + (shortfall.map { Formatting.bytes($0) + " more" } ?? "more space")
        case .checksumMismatch(let algorithm, let expected, let actual):
            let name = ChecksumAlgorithm(name: algorithm)?.displayName ?? TerminalText.sanitize(algorithm)
            return "\(name) checksum mismatch: expected \(expected), got \(actual)"
        case .cancelled: return "cancelled by user"
        case .file(let text), .other(let text): return TerminalText.sanitize(text)
        }
    }

    public static func startOver(_ reason: StartOverReason) -> String {
        switch reason {
        case .remoteChanged: return "remote file changed; started over"
        case .rangesIgnored: return "server ignores ranges; started over"
        case .rangeMismatch: return "server sent an unexpected range; started over"
        case .partLargerThanRemote: return "local part is larger than the remote file; started over"
        case .partNotWhole: return "the partial file was missing bytes haul had written; started over"
        }
    }

    /// `notice` as of `now`: a retry counts down to its next attempt (without a time, it says
    /// only that one is coming).
    public static func notice(_ notice: Notice, now: Date?) -> String {
        switch notice {
        case .retrying(let why, let at, let attempt, let of):
            // Counted as `-t` counts tries: the first attempt and each retry. A download with no
            // limit on its tries has no last one to name.
            let count = of == Int.max ? "try \(attempt + 1)" : "try \(attempt + 1) of \(of + 1)"
            guard let now else { return "\(failure(why)); retrying (\(count))" }
            let wait = max(0, at.timeIntervalSince(now))
            let when = wait < 0.5 ? "retrying now" : "retrying in \(Formatting.duration(wait))"
            return "\(failure(why)); \(when) (\(count))"
        case .startedOver(let why): return startOver(why)
        case .fewerConnections(let count, let why):
            let using = count == 1 ? "one connection" : "\(count) connections"
            return "the server turned away another connection (\(failure(why))); going on with \(using)"
        case .budgetUsed(let used, let budget, let period):
            return
                "metered data budget used: \(Formatting.bytes(used)) of \(Formatting.bytes(budget)) \(period.current)"
        case .heldUntil(let minute): return "held by the speed limit's schedule until \(DailyWindow.clock(minute))"
        case .otherFileAtNewLink(let size, let was):
            guard let size, let was, size != was else {
                return "the new link serves a different file (its date or ETag differs); started over"
            }
            return "the new link serves a different file: \(Formatting.bytes(size)), was \(Formatting.bytes(was)); "
                + "started over"
        case .cannotSeed(let why): return "cannot seed: \(TerminalText.sanitize(why))"
        case .waitingForNetwork(let why): return "\(failure(why)); no network, waiting for it to come back"
        case .text(let text): return TerminalText.sanitize(text)
        }
    }
}
