import COpenSSL
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
        let hasher = Digester(algorithm)
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

/// One of OpenSSL's digests (libcrypto's EVP interface), fed a file chunk by chunk. Used on the
/// thread that made it, and freed with it.
final class Digester {
    private let context: OpaquePointer?

    init(_ algorithm: ChecksumAlgorithm) {
        let function: OpaquePointer? =
            switch algorithm {
            case .md5: EVP_md5()
            case .sha1: EVP_sha1()
            case .sha224: EVP_sha224()
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            case .sha512: EVP_sha512()
            }
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, function, nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) { EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }

    /// The digest; the digester is not used again.
    func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }
}
