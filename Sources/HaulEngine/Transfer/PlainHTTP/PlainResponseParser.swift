import HaulCore
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the responses of one HTTP/1.1 connection from the bytes it receives (RFC 9112), one
/// response per request sent: the head, the body in the pieces it arrived in (with chunked
/// framing taken off), and the end.
///
/// It replaces NIO's `HTTPResponseDecoder` on the plain client: that decoder's callbacks built
/// a `String` and a header entry per field through two layers of delegates, ~19 K instructions
/// of a 100 KiB file's ~280 K (issue 6, (b)). This parser finds the end of the head first and
/// reads the fields from there; body pieces are slices of the received buffers, not copies.
///
/// It is strict where leniency would let a server confuse framing — a malformed status line or
/// field, folded lines, conflicting lengths, a transfer coding other than chunked, a bad chunk —
/// and such a response fails the transfer for good. A head larger than ``maxHeadSize`` fails too.
struct PlainResponseParser {
    enum Part {
        case head(HTTPResponseHead)
        case body(ByteBuffer)
        /// The response is complete; whether the connection can carry the next request.
        case end(keepAlive: Bool)
    }

    /// The most a response head (status line and fields), or the trailer after a chunked body,
    /// may take.
    static let maxHeadSize = 64 * 1024
    /// The most a chunk's size line may take (its extensions included).
    static let maxChunkLineSize = 4 * 1024

    private enum State {
        /// No request is waiting for its response.
        case idle
        /// Waiting for the head; `scanned` bytes of it were looked through for its end already.
        case head(bodiless: Bool, scanned: Int)
        case fixedBody(remaining: Int64)
        case chunkSize
        case chunkData(remaining: Int64)
        /// The line break after a chunk's data.
        case chunkEnd
        /// The fields after the last chunk, skipped; `size` bytes of them so far.
        case trailer(size: Int)
        /// A body without a length: it ends when the connection does.
        case untilClose
        /// The end is due (the body was complete, or there was none).
        case complete
        case failed
    }

    private var state = State.idle
    private var unread = ByteBuffer()
    private var keepAlive = true

    /// A request has been sent; its response comes next. `bodiless` for a response that has no
    /// body whatever its head says (to HEAD).
    mutating func expectResponse(bodiless: Bool = false) {
        if case .idle = state { state = .head(bodiless: bodiless, scanned: 0) }
    }

    /// Takes bytes read from the connection.
    mutating func receive(_ bytes: ByteBuffer) {
        if unread.readableBytes == 0 {
            unread = bytes
        } else {
            var bytes = bytes
            unread.writeBuffer(&bytes)
        }
    }

    /// The next part of the response from the bytes received so far; nil when more are needed.
    mutating func next() throws(TransferError) -> Part? {
        do {
            return try nextPart()
        } catch {
            state = .failed
            throw error
        }
    }

    /// The connection has closed: the end of a body that runs until then; nil when no response
    /// was under way or its head had not arrived (the caller knows what that means for it).
    /// Throws when a body was cut short.
    mutating func connectionClosed() throws(TransferError) -> Part? {
        switch state {
        case .untilClose:
            state = .failed
            return .end(keepAlive: false)
        case .fixedBody, .chunkSize, .chunkData, .chunkEnd, .trailer:
            state = .failed
            throw .transient("the connection closed before the body was complete")
        case .idle, .head, .complete, .failed:
            return nil
        }
    }

    private mutating func nextPart() throws(TransferError) -> Part? {
        while true {
            switch state {
            case .idle:
                // Anything a server sends with no request waiting for it is not a response.
                guard unread.readableBytes == 0 else {
                    throw Self.malformed("data arrived with no request outstanding")
                }
                return nil
            case .head(let bodiless, let scanned):
                guard let length = try headLength(scanned: scanned) else {
                    state = .head(bodiless: bodiless, scanned: max(0, unread.readableBytes - 3))
                    return nil
                }
                guard let head = try readHead(length: length, bodiless: bodiless) else {
                    state = .head(bodiless: bodiless, scanned: 0) // an informational response, skipped
                    continue
                }
                return .head(head)
            case .fixedBody(let remaining):
                if remaining == 0 {
                    state = .complete
                    continue
                }
                guard unread.readableBytes > 0 else { return nil }
                let piece = Int(min(remaining, Int64(unread.readableBytes)))
                state = .fixedBody(remaining: remaining - Int64(piece))
                return .body(unread.readSlice(length: piece)!)
            case .untilClose:
                guard unread.readableBytes > 0 else { return nil }
                return .body(unread.readSlice(length: unread.readableBytes)!)
            case .chunkSize:
                guard let line = try readLine(limit: Self.maxChunkLineSize, what: "chunk size line") else { return nil }
                let size = try Self.chunkSize(line)
                state = size == 0 ? .trailer(size: 0) : .chunkData(remaining: size)
            case .chunkData(let remaining):
                guard unread.readableBytes > 0 else { return nil }
                let piece = Int(min(remaining, Int64(unread.readableBytes)))
                state = remaining == Int64(piece) ? .chunkEnd : .chunkData(remaining: remaining - Int64(piece))
                return .body(unread.readSlice(length: piece)!)
            case .chunkEnd:
                guard let line = try readLine(limit: 2, what: "chunk end") else { return nil }
                guard line.isEmpty else { throw Self.malformed("chunk data longer than its size") }
                state = .chunkSize
            case .trailer(let size):
                guard let line = try readLine(limit: Self.maxHeadSize - size, what: "trailer") else { return nil }
                state = line.isEmpty ? .complete : .trailer(size: size + line.count + 2)
            case .complete:
                state = .idle
                // Bytes after the end: the connection is not trusted with another request.
                return .end(keepAlive: keepAlive && unread.readableBytes == 0)
            case .failed:
                return nil
            }
        }
    }

    // MARK: The head

    /// The length of the head at the start of `unread`, its final empty line included, once it
    /// has all arrived; the first `scanned` bytes were looked through already.
    private func headLength(scanned: Int) throws(TransferError) -> Int? {
        let found = unread.withUnsafeReadableBytes { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            var i = scanned
            while i < bytes.count, let lineFeed = memchr(base + i, Int32(UInt8(ascii: "\n")), bytes.count - i) {
                i = base.distance(to: UnsafeRawPointer(lineFeed))
                // A line ends here; the head ends if the next line is empty ("\n" or "\r\n").
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { return i + 2 }
                if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\r"), bytes[i + 2] == UInt8(ascii: "\n") {
                    return i + 3
                }
                i += 1
            }
            return nil
        }
        if let found, found <= Self.maxHeadSize { return found }
        if found != nil || unread.readableBytes > Self.maxHeadSize {
            throw Self.malformed("response head larger than \(Self.maxHeadSize / 1024) KiB")
        }
        return nil
    }

    /// Reads the head of `length` bytes; nil for an informational (1xx) response, which is
    /// skipped. Sets the state for the body.
    private mutating func readHead(length: Int, bodiless: Bool) throws(TransferError) -> HTTPResponseHead? {
        let parsed = try unread.withUnsafeReadableBytes { bytes throws(TransferError) in
            try Self.parseHead(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        }
        unread.moveReaderIndex(forwardBy: length)
        if parsed.status / 100 == 1 {
            guard parsed.status != 101 else { throw Self.malformed("the server switched protocols") }
            return nil
        }
        keepAlive = parsed.keepAlive
        if bodiless || parsed.status == 204 || parsed.status == 304 {
            state = .complete
        } else if let codings = parsed.transferCodings {
            guard codings == ["chunked"] else {
                throw Self.malformed("transfer coding '\(codings.joined(separator: ", "))', which haul does not decode")
            }
            // Both framings given (RFC 9112 §6.3): chunked wins, and the connection is not reused.
            if parsed.contentLength != nil || parsed.version.minor == 0 { keepAlive = false }
            state = .chunkSize
        } else if let length = parsed.contentLength {
            state = .fixedBody(remaining: length)
        } else {
            keepAlive = false
            state = .untilClose
        }
        let headers = HTTPHeaders(parsed.fields)
        return HTTPResponseHead(version: parsed.version, status: .init(statusCode: parsed.status), headers: headers)
    }

    private struct ParsedHead {
        var version: HTTPVersion
        var status: Int
        var fields: [(String, String)] = []
        var contentLength: Int64?
        var transferCodings: [String]?
        var keepAlive: Bool
    }

    /// The status line and the fields of a complete head (its last empty line included).
    ///
    /// Plain loops over the raw bytes: through `Slice` and the generic collection algorithms a
    /// head cost as much as with NIO's decoder.
    private static func parseHead(_ head: UnsafeRawBufferPointer) throws(TransferError) -> ParsedHead {
        var lines = LineReader(head)
        guard let statusLine = try lines.next() else { throw malformed("empty status line") }
        let (version, status) = try parseStatusLine(head, statusLine)
        var parsed = ParsedHead(version: version, status: status, keepAlive: version.minor > 0)
        parsed.fields.reserveCapacity(16)
        var connectionClose = false
        var connectionKeepAlive = false
        while let line = try lines.next(), !line.isEmpty {
            guard !HTTPSyntax.isBlank(head[line.lowerBound]) else { throw malformed("a folded header line") }
            var colon = line.lowerBound
            while colon < line.upperBound, head[colon] != UInt8(ascii: ":") { colon += 1 }
            guard colon < line.upperBound else { throw malformed("a header line without a colon") }
            guard colon > line.lowerBound, all(head, line.lowerBound..<colon, HTTPSyntax.isTokenByte) else {
                throw malformed("an invalid header name")
            }
            let value = trimmed(head, colon + 1..<line.upperBound)
            guard all(head, value, HTTPSyntax.isFieldValueByte) else {
                throw malformed("control characters in a header value")
            }
            let name = UnsafeRawBufferPointer(rebasing: head[line.lowerBound..<colon])
            if isName(name, "content-length") {
                let length = try contentLength(head, value)
                guard parsed.contentLength == nil || parsed.contentLength == length else {
                    throw malformed("conflicting Content-Length values")
                }
                parsed.contentLength = length
            } else if isName(name, "transfer-encoding") {
                var codings = parsed.transferCodings ?? []
                try forEachListElement(head, value) {
                    codings.append(String(decoding: $0.map(ASCIIText.lowercased), as: UTF8.self))
                }
                parsed.transferCodings = codings
            } else if isName(name, "connection") {
                try forEachListElement(head, value) { option in
                    if isName(option, "close") { connectionClose = true }
                    if isName(option, "keep-alive") { connectionKeepAlive = true }
                }
            }
            parsed.fields.append((String(decoding: name, as: UTF8.self), String(decoding: head[value], as: UTF8.self)))
        }
        if connectionClose {
            parsed.keepAlive = false
        } else if connectionKeepAlive {
            parsed.keepAlive = true
        }
        return parsed
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]`; the reason is not kept.
    private static func parseStatusLine(_ head: UnsafeRawBufferPointer, _ line: Range<Int>) throws(TransferError) -> (
        HTTPVersion, Int
    ) {
        let s = line.lowerBound
        let name: StaticString = "HTTP/1."
        guard line.count >= 12, (0..<7).allSatisfy({ head[s + $0] == name.utf8Start[$0] }),
            let minor = digit(head[s + 7]), head[s + 8] == UInt8(ascii: " "),
            let hundreds = digit(head[s + 9]), let tens = digit(head[s + 10]), let ones = digit(head[s + 11]),
            hundreds > 0
        else { throw malformed("invalid status line") }
        if line.count > 12 {
            guard head[s + 12] == UInt8(ascii: " "), all(head, s + 12..<line.upperBound, HTTPSyntax.isFieldValueByte)
            else {
                throw malformed("invalid status line")
            }
        }
        return (HTTPVersion(major: 1, minor: minor == 0 ? 0 : 1), hundreds * 100 + tens * 10 + ones)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    @inline(__always)
    private static func all(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ test: (UInt8) -> Bool) -> Bool {
        for i in range where !test(bytes[i]) { return false }
        return true
    }

    /// `range` without the blanks (OWS) at its ends.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, HTTPSyntax.isBlank(bytes[lower]) { lower += 1 }
        while upper > lower, HTTPSyntax.isBlank(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// A Content-Length value: a decimal count, or a list of the same count repeated.
    private static func contentLength(_ bytes: UnsafeRawBufferPointer, _ value: Range<Int>) throws(TransferError)
        -> Int64
    {
        var length: Int64?
        var start = value.lowerBound
        while start <= value.upperBound {
            var end = start
            while end < value.upperBound, bytes[end] != UInt8(ascii: ",") { end += 1 }
            let digits = trimmed(bytes, start..<end)
            // 18 digits cannot overflow an Int64.
            guard !digits.isEmpty, digits.count <= 18 else { throw malformed("invalid Content-Length") }
            var number: Int64 = 0
            for i in digits {
                guard let d = digit(bytes[i]) else { throw malformed("invalid Content-Length") }
                number = number * 10 + Int64(d)
            }
            guard length == nil || length == number else { throw malformed("conflicting Content-Length values") }
            length = number
            start = end + 1
        }
        guard let length else { throw malformed("invalid Content-Length") }
        return length
    }

    /// Calls `body` with each element of a comma-separated list of tokens; empty elements are
    /// skipped, as RFC 9110 §5.6.1 asks. Parameters (after `;`) are not allowed.
    private static func forEachListElement(
        _ bytes: UnsafeRawBufferPointer, _ value: Range<Int>, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(TransferError) {
        var start = value.lowerBound
        while start < value.upperBound {
            var end = start
            while end < value.upperBound, bytes[end] != UInt8(ascii: ",") { end += 1 }
            let token = trimmed(bytes, start..<end)
            if !token.isEmpty {
                guard all(bytes, token, HTTPSyntax.isTokenByte) else {
                    throw malformed("an invalid list in a header value")
                }
                body(UnsafeRawBufferPointer(rebasing: bytes[token]))
            }
            start = end + 1
        }
    }

    /// Whether `name` is `lowercase` in any ASCII case.
    private static func isName(_ name: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard name.count == lowercase.utf8CodeUnitCount else { return false }
        let wanted = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for i in 0..<name.count where ASCIIText.lowercased(name[i]) != wanted[i] { return false }
        return true
    }

    // MARK: Chunks

    /// Reads a line from `unread` (without its line break); nil while it has not all arrived.
    private mutating func readLine(limit: Int, what: StaticString) throws(TransferError) -> [UInt8]? {
        let read = try unread.withUnsafeReadableBytes { bytes throws(TransferError) -> (line: [UInt8], length: Int)? in
            var lines = LineReader(bytes)
            guard let line = try lines.next() else { return nil }
            guard line.count <= limit else { throw Self.malformed("\(what) too long") }
            return (Array(UnsafeRawBufferPointer(rebasing: bytes[line])), lines.consumed)
        }
        guard let read else {
            // No line break yet: a line's break takes at most two bytes.
            guard unread.readableBytes <= limit + 1 else { throw Self.malformed("\(what) too long") }
            return nil
        }
        unread.moveReaderIndex(forwardBy: read.length)
        return read.line
    }

    /// `chunk-size [chunk-ext]`: hexadecimal digits, then nothing or extensions (ignored).
    private static func chunkSize(_ line: [UInt8]) throws(TransferError) -> Int64 {
        var size: Int64 = 0
        var digits = 0
        for byte in line {
            let value: Int64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int64(byte - UInt8(ascii: "A") + 10)
            default: value = -1
            }
            guard value >= 0 else { break }
            // 15 hexadecimal digits cannot overflow an Int64.
            guard digits < 15 else { throw malformed("chunk size too large") }
            size = size * 16 + value
            digits += 1
        }
        guard digits > 0 else { throw malformed("invalid chunk size") }
        let rest = line.dropFirst(digits).drop(while: HTTPSyntax.isBlank)
        guard rest.isEmpty || rest.first == UInt8(ascii: ";"), rest.allSatisfy(HTTPSyntax.isFieldValueByte) else {
            throw malformed("invalid chunk size")
        }
        return size
    }

    fileprivate static func malformed(_ what: String) -> TransferError {
        // A server that sends garbage once will send it again: no retries.
        .permanent("malformed response from the server (\(what))")
    }
}

/// The lines of a complete head, each as the range of its bytes without its line break ("\r\n",
/// or "\n" alone).
private struct LineReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    /// Bytes taken by the lines read so far, their breaks included.
    var consumed: Int { position }

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func next() throws(TransferError) -> Range<Int>? {
        // memchr: a byte loop cost ~10 instructions a byte here, for every byte of every head.
        guard position < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + position, Int32(UInt8(ascii: "\n")), bytes.count - position)
        else { return nil }
        let start = position
        var end = base.distance(to: UnsafeRawPointer(found))
        position = end + 1
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard memchr(base + start, Int32(UInt8(ascii: "\r")), end - start) == nil else {
            throw PlainResponseParser.malformed("a stray carriage return")
        }
        return start..<end
    }
}
