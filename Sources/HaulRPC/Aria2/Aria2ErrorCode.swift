import HaulCore

/// aria2's numbers for why a download stopped (its EXIT STATUS list), from haul's reasons: what
/// `errorCode` carries, and what clients show or act on.
public enum Aria2ErrorCode {
    public static let finished = 0
    public static let removed = 31

    public static func of(_ reason: FailureReason) -> Int {
        switch reason {
        case .status(let status):
            switch status {
            case 404, 410: return 3 // resource not found
            case 401, 403, 407: return 24 // authorization failed
            case 503: return 29 // overloaded or in maintenance
            default: return 22 // a bad or unexpected response
            }
        case .tooManyRedirects: return 23
        case .noContent, .redirectWithoutLocation, .invalidRedirect, .redirectToScheme, .wrongRange, .malformedResponse,
            .completeWithoutFile:
            return 22
        case .startedOverTooOften, .rangesRefused: return 8 // could not resume
        case .stalled: return 2 // time out
        case .cannotConnect(_, _, let why) where why.contains("resolve"): return 19
        case .closedEarly, .bodyCutShort, .serverClosedConnection, .cannotConnect, .connectionFailed, .tls: return 6
        case .requestHeaderRefused: return 28 // a bad option
        case .diskFull: return 9
        case .checksumMismatch: return 32
        case .file: return 17 // file I/O
        case .cancelled: return removed
        case .other: return 1
        }
    }
}
