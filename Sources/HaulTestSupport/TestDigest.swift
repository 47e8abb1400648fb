import COpenSSL
import Foundation

/// Digests for tests to make expected values with (a torrent's piece hashes, a file's SHA-256):
/// OpenSSL's, the library haul's own checksums use, called directly so a test never goes
/// through the code it checks.
public enum TestDigest {
    public static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(Array(bytes), EVP_sha1()) }
    public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(Array(bytes), EVP_sha256()) }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The SHA-256 of the file at `path` in hex, read in chunks; nil when it cannot be read.
    public static func sha256Hex(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        while let chunk = try? handle.read(upToCount: 1 << 22), !chunk.isEmpty {
            chunk.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &length)
        return hex(Array(out.prefix(Int(length))))
    }

    private static func digest(_ bytes: [UInt8], _ function: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBytes { _ = EVP_Digest($0.baseAddress, $0.count, &out, &length, function, nil) }
        return Array(out.prefix(Int(length)))
    }
}
