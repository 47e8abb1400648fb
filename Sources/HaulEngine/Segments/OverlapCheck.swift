import HaulCore
import HaulHTTP
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How a further connection shows that it gets the same version of the file as the bytes on
/// disk when the server gives no strong validator: before its own range, it asks for a few KiB
/// that are already written and compares them. A server that sends other bytes on each request
/// (a generated archive, a "latest" link behind a cache) would otherwise leave a file put
/// together from two versions.
enum OverlapCheck {
    /// How much is asked for and compared.
    static let length: Int64 = 16 * 1024
    /// The fewest written bytes worth comparing; with fewer the connection waits.
    static let least: Int64 = 1024

    /// Whether the first response's validators leave the version unproven: a strong `ETag`
    /// makes every range request conditional on it; `Last-Modified` alone, or a weak `ETag`, does not.
    static func isNeeded(etag: String?) -> Bool {
        guard let etag else { return true }
        return etag.hasPrefix("W/")
    }

    /// The bytes to compare: from `start` on, of the `written` there (nil when too few).
    static func region(start: Int64, written: Int64) -> Range<Int64>? {
        guard written >= least else { return nil }
        return start..<(start + min(written, length))
    }

    /// The bytes to compare in a plan resumed from its map: the first piece with enough on disk.
    static func region(in plan: SegmentPlan) -> Range<Int64>? {
        plan.pieces.lazy.compactMap { region(start: $0.start, written: $0.next - $0.start) }.first
    }

    /// The bytes `range` of the file at `path`; nil when they cannot all be read.
    static func read(_ range: Range<Int64>, at path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: range.count)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(range.lowerBound)) }
        return count == range.count ? bytes : nil
    }
}

/// A response body kept in memory: the bytes a connection compares (``OverlapCheck``), a
/// Metalink document. One longer than `limit` bytes fails.
final class CollectedBody: BodyDestination {
    private let bytes = Mutex<[UInt8]>([])
    private let limit: Int

    init(limit: Int = Int.max) { self.limit = limit }

    var collected: [UInt8] { bytes.withLock { $0 } }

    func write(_ buffer: ByteBuffer, at offset: Int64, fileSize: Int64?) throws {
        try bytes.withLock { bytes throws(TransferFailure) in
            guard bytes.count + buffer.readableBytes <= limit else {
                throw TransferFailure(.other("the answer is larger than \(limit) bytes"), isTransient: false)
            }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
    }

    func startWriteback(_ range: Range<Int64>) {}
}
