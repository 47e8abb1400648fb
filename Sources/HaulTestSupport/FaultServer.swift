import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on loopback whose every response is a script, so tests can inject
/// the faults real servers produce: resets mid-body, stalls, short bodies, odd headers.
///
/// One thread per connection, one request per connection (`Connection: close`).
public final class FaultServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names in lower case.
        public var headers: [String: String]
        public var receivedAt: Date
    }

    /// What the server does, in order, for one request.
    public enum Step: Sendable {
        case send([UInt8])
        case sleep(Double)
        /// Abort the connection with a TCP reset.
        case reset
        /// Run `action` (count connections, change what later requests get).
        case call(@Sendable () -> Void)
        /// Run `action` when the connection ends, however it ends (the client may close first).
        case atEnd(@Sendable () -> Void)
    }

    /// Decides the steps for the `index`-th request (0-based, counted over the server's life).
    public typealias Handler = @Sendable (_ request: Request, _ index: Int) -> [Step]

    public let port: Int
    private let listener: Int32
    private let handler: Handler
    private let log = Mutex<[Request]>([])

    public init(_ handler: @escaping Handler) throws {
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
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ChildProcess.SpawnError(
                description: "fault server cannot listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Every request received so far.
    public var requests: [Request] { log.withLock { $0 } }

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
            Thread.detachNewThread { server.serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard var request = readRequest(fd) else { return }
        // Playing a forward proxy: accept the tunnel, then answer the request inside it.
        if request.method == "CONNECT" {
            log.withLock { $0.append(request) }
            guard sendAll(fd, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)), let inner = readRequest(fd)
            else { return }
            request = inner
        }
        let index = log.withLock { log -> Int in
            log.append(request)
            return log.count - 1
        }
        let steps = handler(request, index)
        defer {
            for case .atEnd(let action) in steps { action() }
        }
        for step in steps {
            switch step {
            case .send(let bytes):
                guard sendAll(fd, bytes) else { return }
            case .sleep(let seconds):
                Thread.sleep(forTimeInterval: seconds)
            case .call(let action):
                action()
            case .atEnd:
                break
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                return
            }
        }
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !data.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            data += buffer[..<n]
            if data.count > 1 << 20 { return nil }
        }
        let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
        let first = lines[0].split(separator: " ")
        guard first.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Request(method: String(first[0]), path: String(first[1]), headers: headers, receivedAt: Date())
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// The bytes of a response head: status line, headers, `Connection: close`, blank line.
    public static func head(_ status: Int, _ headers: [(String, String)] = []) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(status < 300 ? "OK" : "Status")\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// A complete response for `body` honouring a `Range: bytes=N-` request when `ranges` is true.
    public static func serve(
        _ body: [UInt8], for request: Request, ranges: Bool = true, etag: String = "\"v1\"",
        extraHeaders: [(String, String)] = []
    ) -> [Step] {
        if ranges, let range = request.headers["range"], range.hasPrefix("bytes="),
            let start = Int(range.dropFirst(6).split(separator: "-").first ?? ""), start < body.count
        {
            if let ifRange = request.headers["if-range"], ifRange != etag {
                return [
                    .send(
                        head(
                            200,
                            [("Content-Length", "\(body.count)"), ("ETag", etag), ("Accept-Ranges", "bytes")]
                                + extraHeaders) + body)
                ]
            }
            let headers = [
                ("Content-Length", "\(body.count - start)"),
                ("Content-Range", "bytes \(start)-\(body.count - 1)/\(body.count)"), ("ETag", etag),
                ("Accept-Ranges", "bytes"),
            ]
            return [.send(head(206, headers + extraHeaders) + Array(body[start...]))]
        }
        var headers = [("Content-Length", "\(body.count)"), ("ETag", etag)]
        if ranges { headers.append(("Accept-Ranges", "bytes")) }
        return [.send(head(200, headers + extraHeaders) + body)]
    }
}
