/// Cuts a byte stream into newline-terminated lines, refusing lines longer than a limit
/// (a peer that never sends a newline must not grow memory without bound).
public struct LineFramer: Sendable {
    public struct LineTooLong: Error, Equatable {}

    public let maxLineLength: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes begin.
    private var start = 0
    /// Where the search for the next newline resumes.
    private var scanned = 0

    /// Buffer capacity kept for the next lines once everything read has been handed out; more
    /// is given back (a UI attached to a daemon would otherwise keep the ~30 MiB that its first
    /// snapshot of 100,000 downloads grew the buffer to, for as long as it runs).
    static let keptCapacity = 1 << 20

    /// The buffer's capacity now (for tests).
    var capacity: Int { buffer.capacity }

    public init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Makes room at once for a next line of `length` bytes (a snapshot's downloads, whose
    /// length its message gives): grown step by step, the buffer would hold one and a half times
    /// the line while it grew.
    public mutating func expect(lineOf length: Int) {
        guard length <= maxLineLength else { return }
        if start > 0 {
            buffer.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
        buffer.reserveCapacity(length + 1)
    }

    /// The next complete line without its newline, or nil until more bytes arrive.
    public mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
        if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
            if start == 0, buffer.count - newline - 1 < newline {
                // The line is most of the buffer (a snapshot of 100,000 downloads is ~30 MB): the
                // buffer becomes the line, and the few bytes after it a new buffer.
                let rest = Array(buffer[(newline + 1)...])
                buffer.removeSubrange(newline...)
                let line = buffer
                buffer = rest
                scanned = 0
                if buffer.isEmpty { releaseReadBytes() }
                return line
            }
            let line = Array(buffer[start..<newline])
            start = newline + 1
            scanned = start
            if start == buffer.count { releaseReadBytes() }
            return line
        }
        scanned = buffer.count
        if buffer.count - start > maxLineLength { throw LineTooLong() }
        return nil
    }

    private mutating func releaseReadBytes() {
        if buffer.capacity > Self.keptCapacity {
            buffer = []
        } else {
            buffer.removeAll(keepingCapacity: true)
        }
        start = 0
        scanned = 0
    }
}
