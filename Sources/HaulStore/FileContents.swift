import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Whole files read with `open`, `fstat` and `read`, which also tell a missing file from an
/// unreadable one by its errno.
public enum FileContents {
    /// A read that failed, with its errno.
    public struct Failure: Error {
        public let code: Int32

        public init(code: Int32) { self.code = code }

        public var reason: String { String(cString: strerror(code)) }
        public var isMissing: Bool { code == ENOENT || code == ENOTDIR }
        /// Why the file could not be read, as the end of a sentence ("no such file").
        public var explanation: String {
            switch code {
            case _ where isMissing: "no such file"
            case EISDIR: "it is a folder"
            default: reason
            }
        }
    }

    public static func read(_ path: String) throws(Failure) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(code: errno) }
        var data = Data(count: max(Int(info.st_size), 0))
        var filled = 0
        while true {
            if filled == data.count { data.count += 64 * 1024 } // grew since fstat, or a /proc-like file
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            if n == 0 { break }
            filled += n
        }
        data.count = filled
        return data
    }
}
