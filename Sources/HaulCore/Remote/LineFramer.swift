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

    /// The next complete line without its newline, or nil until more bytes arrive.
    public mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
        if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
            let line = Array(buffer[start..<newline])
            start = newline + 1
            scanned = start
            return line
        }
        scanned = buffer.count
        if buffer.count - start > maxLineLength { throw LineTooLong() }
        return nil
    }
}
