import FoundationEssentials
import HaulCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 with a port of its own: `haul demo` serves its generated
/// files with it, and the tests script faults real servers produce on it.
///
/// One thread per connection, one request per connection (`Connection: close`): the demo and the
/// tests keep a handful open at a time, and a blocking thread can stall or reset at any byte.
public final class LoopbackServer: Sendable {
    /// Answers one connection whose request head has been read; the connection closes after it.
    public typealias Handler = @Sendable (_ request: LoopbackRequest, _ connection: LoopbackConnection) -> Void

    public let port: Int
    private let listener: Int32
    private let handler: Handler

    public init(_ handler: @escaping Handler) throws(LoopbackError) {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else {
            let why = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw LoopbackError(description: "cannot listen on 127.0.0.1: \(why)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let server = self
        DetachedThread.start { server.acceptLoop() }
    }

    /// The address of `path` (which starts with `/`) on this server.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops accepting; connections being answered go on to their end.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = self
            DetachedThread.start { server.serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        let connection = LoopbackConnection(fd: fd)
        defer { connection.close() }
        guard let request = connection.readRequest() else { return }
        handler(request, connection)
    }

    /// The bytes of a response head: status line, headers, `Connection: close`, blank line.
    public static func head(_ status: Int, _ headers: [(String, String)] = []) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(status < 300 ? "OK" : "Status")\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }
}

/// A request head as the loopback server read it.
public struct LoopbackRequest: Sendable {
    public var method: String
    public var path: String
    /// Header names in lower case.
    public var headers: [String: String]
    public var receivedAt: Date

    public init(method: String, path: String, headers: [String: String], receivedAt: Date = Date()) {
        self.method = method
        self.path = path
        self.headers = headers
        self.receivedAt = receivedAt
    }

    /// The bytes its `Range` header asks for (`bytes=a-b`, `bytes=a-` or `bytes=-n`) of a body of
    /// `count` bytes, as RFC 9110 reads a single range; nil without one that can be served.
    public func requestedRange(count: Int) -> Range<Int>? {
        guard let value = headers["range"], value.hasPrefix("bytes=") else { return nil }
        let bounds = value.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return nil }
        if bounds[0].isEmpty {
            guard let suffix = Int(bounds[1]), suffix > 0, count > 0 else { return nil }
            return max(0, count - suffix)..<count
        }
        guard let first = Int(bounds[0]), first < count else { return nil }
        let last = bounds[1].isEmpty ? count - 1 : min(count - 1, Int(bounds[1]) ?? count - 1)
        return last >= first ? first..<(last + 1) : nil
    }
}

/// One accepted connection, owned by the thread answering it.
public struct LoopbackConnection: Sendable {
    let fd: Int32

    /// Reads a request head (up to 1 MiB); nil when the peer closed or sent no head.
    public func readRequest() -> LoopbackRequest? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !data.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            data += buffer[..<n]
            if data.count > 1 << 20 { return nil }
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let first = lines[0].split(separator: " ")
        guard first.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmed()
        }
        return LoopbackRequest(method: String(first[0]), path: String(first[1]), headers: headers)
    }

    /// Sends all of `bytes`; false once the peer is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Ends the connection with a TCP reset instead of a close.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    func close() { Glibc.close(fd) }
}

public struct LoopbackError: Error, CustomStringConvertible {
    public let description: String
}
