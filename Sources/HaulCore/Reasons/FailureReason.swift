/// Why a transfer attempt failed, as a value: the engine stores it, and ``ReasonText`` turns it
/// into the sentence a person reads. Text carried inside a case is haul's own wording or already
/// cleaned of control characters; nothing here is server text written raw.
///
/// Indirect, so that a download without one (nearly all of a long list) carries a pointer's width
/// for it, not its largest case.
public indirect enum FailureReason: Sendable, Equatable, Hashable {
    /// The server answered with a status that ends the attempt (403, 404, 410, 429, 5xx…).
    case status(Int)
    /// The server answered 204: there is no file.
    case noContent
    /// A redirect without a `Location`.
    case redirectWithoutLocation(status: Int)
    /// A redirect to something that is not a URL.
    case invalidRedirect
    /// A redirect to a scheme haul does not fetch (`file:`, `ftp:`…).
    case redirectToScheme(String)
    case tooManyRedirects(limit: Int)
    /// The attempt started over from the first byte more often than allowed.
    case startedOverTooOften(StartOverReason)
    /// 416 at the full size, but nothing was downloaded to be complete.
    case completeWithoutFile
    /// The connection ended before the promised size.
    case closedEarly(received: Int64, expected: Int64)
    /// The connection ended in the middle of the body's framing.
    case bodyCutShort
    case serverClosedConnection
    /// No byte arrived for this many seconds.
    case stalled(seconds: Int)
    /// The connection could not be made; `why` in haul's words ("connection refused").
    case cannotConnect(host: String, port: Int, why: String)
    /// The connection failed after it was made; in haul's words ("connection reset by the server").
    case connectionFailed(String)
    /// A connection's range request was answered with the whole file.
    case rangesRefused
    /// A ranged response whose `Content-Range` is not the range asked for; `got` is haul's
    /// rendering of what came (`"bytes 0-99/200"`, or `"none"`).
    case wrongRange(asked: String, got: String)
    /// A response haul cannot frame safely; what NIO's decoder said.
    case malformedResponse(String)
    /// A request header holds a character HTTP does not allow.
    case requestHeaderRefused
    /// A TLS failure, in haul's words with what to do about it.
    case tls(String)
    /// The disk is full; how many more bytes the rest of the file needs, when known.
    case diskFull(shortfall: Int64?)
    case checksumMismatch(algorithm: String, expected: String, actual: String)
    /// A file-system error, in words.
    case file(String)
    /// The user cancelled the download.
    case cancelled
    /// Anything else, in words; also what an older haul stored as plain text.
    case other(String)

    /// Whether trying again may help when nothing else is known about the failure.
    public var isTransientByDefault: Bool {
        switch self {
        case .status(let status): return HTTPStatusReason.isTransient(status)
        case .closedEarly, .bodyCutShort, .serverClosedConnection, .stalled, .cannotConnect, .connectionFailed,
            .startedOverTooOften, .wrongRange:
            return true
        case .rangesRefused:
            return false
        case .noContent, .redirectWithoutLocation, .invalidRedirect, .redirectToScheme, .tooManyRedirects,
            .completeWithoutFile, .malformedResponse, .requestHeaderRefused, .tls, .diskFull,
            .checksumMismatch, .file, .cancelled, .other:
            return false
        }
    }
}

/// A failed attempt: what went wrong, whether another attempt may help, and when the server asked
/// to be asked again.
public struct TransferFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: FailureReason
    public var isTransient: Bool
    /// Raw `Retry-After` of the response, if any.
    public var retryAfter: String?
    /// The server turned the request away before it processed it: a stream of an HTTP/2
    /// connection it was closing (GOAWAY) or had no room for (REFUSED_STREAM). Sending it again
    /// is safe (RFC 9113 §8.7) and is not one of the download's attempts.
    public var unprocessed: Bool
    /// Nothing answered: no route to the host, a connect or a name lookup that timed out. With
    /// the machine offline that is the network's doing, not the server's (as a stall is).
    public var unanswered: Bool

    public init(
        _ reason: FailureReason, isTransient: Bool? = nil, retryAfter: String? = nil, unprocessed: Bool = false,
        unanswered: Bool = false
    ) {
        self.reason = reason
        self.isTransient = isTransient ?? reason.isTransientByDefault
        self.retryAfter = retryAfter
        self.unprocessed = unprocessed
        self.unanswered = unanswered
    }

    /// Whether the machine's network going away explains it: nothing answered, or the data
    /// stopped. A refused connection, a reset or an error status are answers.
    public var mayBeTheNetwork: Bool {
        if case .stalled = reason { return true }
        return unanswered
    }

    /// A full disk pauses the download until there is room instead of failing it.
    public var isDiskFull: Bool {
        if case .diskFull = reason { return true }
        return false
    }

    public var description: String { ReasonText.failure(reason) }
}
