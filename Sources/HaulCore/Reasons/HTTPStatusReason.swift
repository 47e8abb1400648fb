/// Human reasons for HTTP statuses that end a download.
public enum HTTPStatusReason {
    public static func describe(_ status: Int) -> String {
        switch status {
        case 401: return "authentication required (HTTP 401)"
        // A 404 is as often a mistyped link as an old one; only 410 says the file is gone.
        case 403: return "access denied by the server (HTTP 403)"
        case 404: return "not found on the server (HTTP 404)"
        case 410: return "link expired or removed (HTTP 410)"
        case 407: return "proxy authentication required (HTTP 407)"
        case 408: return "server timed out waiting for the request (HTTP 408)"
        case 429: return "too many requests (HTTP 429)"
        case 500...599: return "server error (HTTP \(status))"
        default: return "unexpected response (HTTP \(status))"
        }
    }

    /// Statuses worth retrying: the server may answer differently later.
    public static func isTransient(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }
}
