import HaulCore

/// What the engine should do with a response head, decided from the status and headers
/// alone (RFC 9110 ranges and conditional requests). Pure: no I/O.
public enum ResponseAction: Equatable, Sendable {
    /// Write the body at `offset`. `startOver` says why a resume became a full download.
    case write(offset: Int64, total: Int64?, startOver: StartOverReason?)
    /// The server says the file is already complete (416 at the full size).
    case alreadyComplete(total: Int64)
    /// Follow a redirect to this (possibly relative) location.
    case redirect(location: String)
    /// Ask again from byte 0 without a range: the local part can't be used.
    case restart(StartOverReason)
    /// The request failed.
    case fail(TransferFailure)
}

public enum ResponseInterpreter {
    /// - Parameters:
    ///   - requestedOffset: the `Range: bytes=N-` start that was sent, or 0 for none.
    ///   - previous: the validators and size stored from the earlier response, to tell "changed"
    ///     from "ignores ranges", and a range of the same file from one of a changed file.
    public static func interpret(
        _ head: ResponseHead, requestedOffset: Int64, previousETag: String?, previousLastModified: String?,
        previousSize: Int64? = nil
    ) -> ResponseAction {
        switch head.status {
        case 200, 203:
            guard requestedOffset > 0 else { return .write(offset: 0, total: head.contentLength, startOver: nil) }
            let changed = validatorsDiffer(head, previousETag: previousETag, previousLastModified: previousLastModified)
            return .write(offset: 0, total: head.contentLength, startOver: changed ? .remoteChanged : .rangesIgnored)
        case 206:
            guard let rangeHeader = head["content-range"], let range = ContentRange(rangeHeader),
                let first = range.first
            else {
                return .restart(.rangeMismatch)
            }
            guard first == requestedOffset else { return .restart(.rangeMismatch) }
            // A server that ignores `If-Range` (or a resume without validators) can answer with
            // a range of another version: its bytes must not follow the old version's.
            if validatorsDiffer(head, previousETag: previousETag, previousLastModified: previousLastModified) {
                return .restart(.remoteChanged)
            }
            if let previousSize, let complete = range.complete, complete != previousSize {
                return .restart(.remoteChanged)
            }
            return .write(offset: first, total: range.complete, startOver: nil)
        case 416:
            if let rangeHeader = head["content-range"], let range = ContentRange(rangeHeader),
                let total = range.complete
            {
                if total == requestedOffset { return .alreadyComplete(total: total) }
                if requestedOffset > total { return .restart(.partLargerThanRemote) }
            }
            return requestedOffset > 0
                ? .restart(.rangeMismatch) : .fail(TransferFailure(.status(416), isTransient: false))
        case 204:
            return .fail(TransferFailure(.noContent))
        case 301, 302, 303, 307, 308:
            guard let location = head["location"], !location.isEmpty else {
                return .fail(TransferFailure(.redirectWithoutLocation(status: head.status)))
            }
            return .redirect(location: location)
        case 200...299:
            return .write(offset: 0, total: head.contentLength, startOver: requestedOffset > 0 ? .rangesIgnored : nil)
        default:
            return .fail(TransferFailure(.status(head.status), retryAfter: head["retry-after"]))
        }
    }

    /// Whether `head` names another version than the validators stored. ETags are compared
    /// weakly (RFC 9110 §8.8.3.2: `W/"a"` and `"a"` are the same tag): only another tag is a
    /// change, so a server that marks a tag weak on one answer does not restart a download.
    static func validatorsDiffer(_ head: ResponseHead, previousETag: String?, previousLastModified: String?) -> Bool {
        if let old = previousETag, let new = head["etag"] { return opaqueTag(old) != opaqueTag(new) }
        if let old = previousLastModified, let new = head["last-modified"] { return old != new }
        return false
    }

    private static func opaqueTag(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag[...]
    }

    /// The validator to send in `If-Range`: a strong ETag, else Last-Modified (RFC 9110 §13.1.5).
    public static func ifRangeValidator(etag: String?, lastModified: String?) -> String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }
}
