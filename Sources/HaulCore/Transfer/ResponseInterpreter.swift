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
    case fail(reason: String, transient: Bool, retryAfter: String?)
}

public enum StartOverReason: String, Codable, Sendable, Equatable {
    case remoteChanged = "remote file changed; started over"
    case rangesIgnored = "server ignores ranges; started over"
    case rangeMismatch = "server sent an unexpected range; started over"
    case partLargerThanRemote = "local part is larger than the remote file; started over"
}

/// The parts of a response head the interpreter reads.
public struct ResponseHead: Sendable {
    public var status: Int
    /// The header fields as they arrived. A response has a handful and a few are asked for, so
    /// they are searched, not hashed: building a dictionary of lowercased names cost more than
    /// the rest of a small file's response handling (issue 6, (b)).
    private var fields: [(name: String, value: String)]

    public init(status: Int, headers: [(String, String)]) {
        self.status = status
        fields = headers.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the field `name` (lowercase), compared without regard to ASCII case; the
    /// last one when the field is repeated.
    public subscript(_ name: String) -> String? {
        let wanted = name.utf8.count
        for field in fields.reversed() where field.name.utf8.count == wanted && Self.sameName(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Content-Length as a byte count, if present and sane.
    public var contentLength: Int64? {
        self["content-length"].flatMap { Int64($0.trimmingASCIIWhitespace()) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Whether `received` is `lowercase` in any ASCII case (both have the same length).
    private static func sameName(_ received: String, _ lowercase: String) -> Bool {
        // Over the contiguous UTF-8: by the views' iterators a byte costs ~10×.
        let fast = received.utf8.withContiguousStorageIfAvailable { a in
            lowercase.utf8.withContiguousStorageIfAvailable { b in
                a.indices.allSatisfy { ASCIIText.lowercased(a[$0]) == b[$0] }
            }
        }
        if let fast, let same = fast { return same }
        return received.utf8.map(ASCIIText.lowercased).elementsEqual(lowercase.utf8)
    }
}

public enum ResponseInterpreter {
    /// - Parameters:
    ///   - requestedOffset: the `Range: bytes=N-` start that was sent, or 0 for none.
    ///   - previous: the validators stored from the earlier response, to tell "changed" from "ignores ranges".
    public static func interpret(
        _ head: ResponseHead, requestedOffset: Int64, previousETag: String?, previousLastModified: String?
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
            return .write(offset: first, total: range.complete, startOver: nil)
        case 416:
            if let rangeHeader = head["content-range"], let range = ContentRange(rangeHeader),
                let total = range.complete
            {
                if total == requestedOffset { return .alreadyComplete(total: total) }
                if requestedOffset > total { return .restart(.partLargerThanRemote) }
            }
            return requestedOffset > 0
                ? .restart(.rangeMismatch)
                : .fail(reason: HTTPStatusReason.describe(416), transient: false, retryAfter: nil)
        case 204:
            return .fail(reason: "server sent no content (HTTP 204)", transient: false, retryAfter: nil)
        case 301, 302, 303, 307, 308:
            guard let location = head["location"], !location.isEmpty else {
                return .fail(
                    reason: "redirect without a location (HTTP \(head.status))", transient: false, retryAfter: nil)
            }
            return .redirect(location: location)
        case 200...299:
            return .write(offset: 0, total: head.contentLength, startOver: requestedOffset > 0 ? .rangesIgnored : nil)
        default:
            return .fail(
                reason: HTTPStatusReason.describe(head.status),
                transient: HTTPStatusReason.isTransient(head.status),
                retryAfter: head["retry-after"]
            )
        }
    }

    static func validatorsDiffer(_ head: ResponseHead, previousETag: String?, previousLastModified: String?) -> Bool {
        if let old = previousETag, let new = head["etag"] { return old != new }
        if let old = previousLastModified, let new = head["last-modified"] { return old != new }
        return false
    }

    /// The validator to send in `If-Range`: a strong ETag, else Last-Modified (RFC 9110 §13.1.5).
    public static func ifRangeValidator(etag: String?, lastModified: String?) -> String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }
}
