import HaulCore

/// Whether a download's new link (`haul refresh`) serves the file its bytes on disk are of.
///
/// The same file is: the same strong ETag; or the same size and Last-Modified; or, when the old
/// answers had no validators at all, the same size. Anything else is another file, and the bytes
/// of two files are never mixed.
public enum LinkCheck: Sendable, Equatable {
    case sameFile
    /// Another file: its size and the old one's, when known.
    case otherFile(size: Int64?, was: Int64?)

    /// What the new link's answer `head` (to a request without `If-Range`) says, against what
    /// the download knew of its file.
    public static func compare(_ head: ResponseHead, etag: String?, lastModified: String?, size: Int64?) -> LinkCheck {
        let newSize =
            head.status == 206 ? head["content-range"].flatMap(ContentRange.init)?.complete : head.contentLength
        let newETag = head["etag"]
        if let etag, !etag.hasPrefix("W/"), etag == newETag { return .sameFile }
        if let lastModified, let size, lastModified == head["last-modified"], newSize == size { return .sameFile }
        if etag == nil, lastModified == nil, let size, newSize == size { return .sameFile }
        return .otherFile(size: newSize, was: size)
    }
}

extension TransferPolicy {
    /// Asks the new link of `target` for its first byte, without `If-Range`, and compares its
    /// answer with what the download knew (its validators, the file's `size`). For the same file
    /// `target` takes the new link's validators, which later range requests are checked against.
    /// A status that ends the attempt (403, 404…) throws as for any request.
    public func checkNewLink<Transport: HTTPTransport>(
        _ target: inout TransferTarget, size: Int64?, over transport: Transport
    ) async throws -> LinkCheck {
        var bare = target
        bare.etag = nil
        bare.lastModified = nil
        let response = try await send(bare, range: 0..<1, from: target.url, over: transport)
        defer { response.drop() }
        let head = response.head
        guard head.status == 200 || head.status == 206 else {
            throw TransferFailure(
                head.status == 204 ? .noContent : .status(head.status), retryAfter: head["retry-after"])
        }
        let check = LinkCheck.compare(head, etag: target.etag, lastModified: target.lastModified, size: size)
        if check == .sameFile {
            target.etag = head["etag"]
            target.lastModified = head["last-modified"]
        }
        return check
    }
}
