import HaulCore

/// What the response to one connection's range request of a segmented download means. Every
/// such response is checked before a byte of it is written: a file never mixes bytes of two
/// versions, or bytes from the wrong place.
public enum RangeVerdict: Sendable, Equatable {
    /// 206 with exactly the range asked for, of the same file: write it.
    case accepted
    /// The validators or the size differ from the first response's: the file changed.
    case fileChanged
    /// A 206 for other bytes than asked for.
    case wrongRange(FailureReason)
    /// The server will not serve this connection the range (the whole file instead, 403, 429,
    /// 503, another error): the download goes on with fewer connections.
    case refused(TransferFailure)
}

public enum RangeResponseCheck {
    /// Judges `head`, the answer to a request for `asked` of a file of `total` bytes whose
    /// first response had the validators `etag` and `lastModified`.
    public static func check(
        _ head: ResponseHead, asked: Range<Int64>, total: Int64, etag: String?, lastModified: String?
    ) -> RangeVerdict {
        let differs = ResponseInterpreter.validatorsDiffer(head, previousETag: etag, previousLastModified: lastModified)
        switch head.status {
        case 206:
            if differs { return .fileChanged }
            let askedText = "bytes \(asked.lowerBound)-\(asked.upperBound - 1)/\(total)"
            guard let text = head["content-range"], let range = ContentRange(text) else {
                return .wrongRange(.wrongRange(asked: askedText, got: head["content-range"] ?? "none"))
            }
            if let complete = range.complete, complete != total { return .fileChanged }
            let got =
                "bytes \(range.first.map(String.init) ?? "*")-\(range.last.map(String.init) ?? "*")/"
                + (range.complete.map(String.init) ?? "*")
            guard range.first == asked.lowerBound, range.last == asked.upperBound - 1 else {
                return .wrongRange(.wrongRange(asked: askedText, got: got))
            }
            if let length = head.contentLength, length != Int64(asked.count) {
                return .wrongRange(.wrongRange(asked: askedText, got: "\(got) with \(length) bytes"))
            }
            return .accepted
        case 200, 203:
            if differs || head.contentLength.map({ $0 != total }) == true { return .fileChanged }
            return .refused(TransferFailure(.rangesRefused))
        case 416:
            if let text = head["content-range"], let complete = ContentRange(text)?.complete, complete != total {
                return .fileChanged
            }
            return .refused(TransferFailure(.status(416), isTransient: false))
        default:
            return .refused(TransferFailure(.status(head.status), retryAfter: head["retry-after"]))
        }
    }
}
