import Foundation
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp (or under `parent`), removed when the value is released.
public final class TestDirectory: Sendable {
    public let path: String

    public init(_ label: String = "haul", in parent: String = "/tmp") {
        var template = Array("\(parent)/\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = made.map { String(cString: $0) } ?? "\(parent)/\(label)-\(UUID().uuidString)"
        if made == nil { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/name`, with intermediate directories created.
    public func subdirectory(_ name: String) -> String {
        let p = path + "/" + name
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }
}

public enum TestFiles {
    /// Writes `size` random bytes to `path`.
    public static func random(_ path: String, size: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        // Seeded once from the system: the system generator costs a system call per number.
        var generator = SplitMix64()
        var remaining = size
        while remaining > 0 {
            let n = min(remaining, 1 << 20)
            try handle.write(contentsOf: Data(randomBytes(n, using: &generator)))
            remaining -= n
        }
    }

    /// `count` random bytes, from a generator seeded once from the system's.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SplitMix64()
        return randomBytes(count, using: &generator)
    }

    public static func randomBytes(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for i in words.indices { words[i] = generator.next() }
            for i in (words.count * 8)..<count { raw[i] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        return bytes
    }

    /// Writes zeros to `path` until the file system is full; returns the bytes written.
    @discardableResult
    public static func fillFileSystem(_ path: String) -> Int64 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var total: Int64 = 0
        while true {
            let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return total }
            total += Int64(n)
        }
    }

    public static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The size of the file at `path`, nil when there is none.
    public static func size(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }
}

public enum FreePort {
    /// A TCP port on 127.0.0.1 that was free a moment ago.
    public static func find() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return bindAnyPort(fd)
    }

    /// A TCP port on 127.0.0.1 held bound until ``release()``: nothing else can take it in the
    /// meantime, not even as the local port of a connection another test makes.
    public final class Reservation: Sendable {
        public let port: Int
        /// The bound socket, -1 once released.
        private let fd: Mutex<Int32>

        public init() {
            let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            port = FreePort.bindAnyPort(socket)
            fd = Mutex(socket)
        }

        /// Lets the port go, for the program about to listen on it (closing a socket that was
        /// only bound frees its port at once).
        public func release() {
            fd.withLock { fd in
                if fd >= 0 { close(fd) }
                fd = -1
            }
        }

        deinit { release() }
    }

    /// Binds `fd` to a port the kernel picks on 127.0.0.1 and returns it.
    static func bindAnyPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on `host` (an IPv4 address):`port`.
    public static func isListening(_ port: Int, host: String = "127.0.0.1") -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}
