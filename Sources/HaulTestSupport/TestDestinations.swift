import Foundation
import HaulCore
import HaulHTTP
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A file a test has a response body written into, at the offsets the sink gives.
public final class TestFile: BodyDestination {
    public let path: String
    private let fd: Int32

    public init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
    }

    deinit { close(fd) }

    public func write(_ buffer: ByteBuffer, at offset: Int64, fileSize: Int64?) throws {
        let written = buffer.withUnsafeReadableBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == buffer.readableBytes else { throw FileError(operation: "write", path: path, code: errno) }
    }

    public func startWriteback(_ range: Range<Int64>) {}
}

/// A speed limit of `rate` bytes per second for a test's reads: a token bucket on the system's clock.
public final class TestPacing: ReadPacing {
    private let clock = SystemClock()
    private let bucket: Mutex<TokenBucket>

    public init(rate: Double?) { bucket = Mutex(TokenBucket(rate: rate, now: clock.now)) }

    public var rate: Double? { bucket.withLock { $0.rate } }
    public func consume(_ bytes: Int) -> Duration { bucket.withLock { [clock] in $0.take(bytes, now: clock.now) } }
    public func takeFromBudget(_ bytes: Int) -> Int { bytes }
    public func countAgainstBudget(_ bytes: Int) {}
}
