import Crypto
import HaulCore

#if canImport(Glibc)
    import Glibc
#endif

/// Digests of files on disk, read in 1 MiB chunks.
public enum FileChecksum {
    /// Lowercase hex digest of the file at `path` by `algorithm`.
    /// ``digest(of:_:)`` for a file the user named: a failure is one sentence.
    public static func digestOfFile(_ path: String, _ algorithm: ChecksumAlgorithm) throws(InputError) -> String {
        do {
            return try digest(of: path, algorithm)
        } catch {
            throw InputError(error.description)
        }
    }

    static func digest(of path: String, _ algorithm: ChecksumAlgorithm, range: Range<Int64>? = nil)
        throws(FileError) -> String
    {
        switch algorithm {
        case .md5: return try digest(of: path, range, with: CryptoHash<Insecure.MD5>())
        case .sha1: return try digest(of: path, range, with: CryptoHash<Insecure.SHA1>())
        case .sha224: return try digest(of: path, range, with: SHA224())
        case .sha256: return try digest(of: path, range, with: CryptoHash<SHA256>())
        case .sha384: return try digest(of: path, range, with: CryptoHash<SHA384>())
        case .sha512: return try digest(of: path, range, with: CryptoHash<SHA512>())
        }
    }

    private static func digest(of path: String, _ range: Range<Int64>?, with start: some StreamingHash)
        throws(FileError) -> String
    {
        var hasher = start
        try readChunks(of: path, range) { hasher.update($0) }
        return hex(hasher.finish())
    }

    /// Reads the file at `path` (only `range` of it, when given) chunk by chunk.
    private static func readChunks(of path: String, _ range: Range<Int64>?, _ body: (UnsafeRawBufferPointer) -> Void)
        throws(FileError)
    {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = range?.lowerBound ?? 0
        while true {
            let wanted = range.map { min(Int64(buffer.count), $0.upperBound - offset) } ?? Int64(buffer.count)
            if wanted <= 0 { break }
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(wanted), off_t(offset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(operation: "read", path: path, code: errno)
            }
            if n == 0 { break }
            offset += Int64(n)
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { Hex.lowercase(bytes) }
}

/// A hash fed a file chunk by chunk.
protocol StreamingHash {
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest; the hash is not used again.
    mutating func finish() -> [UInt8]
}

/// One of swift-crypto's hash functions.
private struct CryptoHash<Function: HashFunction>: StreamingHash {
    var function = Function()
    mutating func update(_ bytes: UnsafeRawBufferPointer) { function.update(bufferPointer: bytes) }
    mutating func finish() -> [UInt8] { Array(function.finalize()) }
}
