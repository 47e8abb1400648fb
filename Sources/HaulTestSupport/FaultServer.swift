import Foundation
import HaulLoopback
import Synchronization

/// A loopback HTTP server whose every response is a script, so tests can inject the faults real
/// servers produce: resets mid-body, stalls, short bodies, odd headers.
///
/// One thread per connection, one request per connection (`Connection: close`).
public final class FaultServer: Sendable {
    public typealias Request = LoopbackRequest

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

    private let server: LoopbackServer
    private let log: RequestLog

    public init(_ handler: @escaping Handler) throws {
        let log = RequestLog()
        self.log = log
        server = try LoopbackServer { request, connection in
            Self.answer(request, on: connection, log: log, handler: handler)
        }
    }

    /// Every request received, in order.
    private final class RequestLog: Sendable {
        let requests = Mutex<[Request]>([])
    }

    public var port: Int { server.port }

    public func url(_ path: String) -> String { server.url("/" + path) }

    /// Every request received so far.
    public var requests: [Request] { log.requests.withLock { $0 } }

    public func stop() { server.stop() }

    private static func answer(
        _ request: Request, on connection: LoopbackConnection, log: RequestLog, handler: Handler
    ) {
        var request = request
        // Playing a forward proxy: accept the tunnel, then answer the request inside it.
        if request.method == "CONNECT" {
            log.requests.withLock { $0.append(request) }
            guard connection.send(Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)),
                let inner = connection.readRequest()
            else { return }
            request = inner
        }
        let index = log.requests.withLock { log -> Int in
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
                guard connection.send(bytes) else { return }
            case .sleep(let seconds):
                Thread.sleep(forTimeInterval: seconds)
            case .call(let action):
                action()
            case .atEnd:
                break
            case .reset:
                connection.reset()
                return
            }
        }
    }

    /// The bytes of a response head: status line, headers, `Connection: close`, blank line.
    public static func head(_ status: Int, _ headers: [(String, String)] = []) -> [UInt8] {
        LoopbackServer.head(status, headers)
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
