import HaulCore
import HaulHTTP
import Synchronization

/// An ``HTTPTransport`` that answers from memory, for tests of the transfer policy: what HTTP
/// means, apart from any network. Engine tests use real servers instead.
public final class MemoryTransport: HTTPTransport {
    /// One scripted answer.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]

        public init(_ status: Int, _ headers: [(String, String)] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    private let answer: @Sendable (HTTPRequest) throws -> Reply
    private let sent = Mutex<[HTTPRequest]>([])
    private let responses = Mutex<[MemoryResponse]>([])

    /// `answer` is asked for each request in turn; what it throws, `send` throws.
    public init(_ answer: @escaping @Sendable (HTTPRequest) throws -> Reply) {
        self.answer = answer
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { sent.withLock { $0 } }
    /// Every response handed out so far, in order.
    public var handedOut: [MemoryResponse] { responses.withLock { $0 } }

    public func send(_ request: HTTPRequest) async throws -> MemoryResponse {
        sent.withLock { $0.append(request) }
        let reply = try answer(request)
        let response = MemoryResponse(
            head: ResponseHead(status: reply.status, headers: reply.headers), body: reply.body)
        responses.withLock { $0.append(response) }
        return response
    }
}

/// A file in memory that a body is written into.
public final class MemoryFile: Sendable {
    private let storage = Mutex<[UInt8]>([])

    public init(_ bytes: [UInt8] = []) { storage.withLock { $0 = bytes } }

    public var bytes: [UInt8] { storage.withLock { $0 } }

    func write(_ bytes: [UInt8], at offset: Int) {
        storage.withLock { file in
            if file.count < offset + bytes.count {
                file += Array(repeating: 0, count: offset + bytes.count - file.count)
            }
            file.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }
    }
}

/// A response of ``MemoryTransport``: its whole body is there at once.
public final class MemoryResponse: HTTPResponse {
    public let head: ResponseHead
    private let body: [UInt8]
    private let state = Mutex<(position: Int64, dropped: Bool, cancelled: Bool, written: Bool)>(
        (0, false, false, false))

    init(head: ResponseHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }

    /// Whether the body was left unwritten with ``drop()``.
    public var wasDropped: Bool { state.withLock { $0.dropped } }
    /// Whether the body was written.
    public var wasWritten: Bool { state.withLock { $0.written } }

    public func startWriting(to destination: MemoryFile, at offset: Int64, total: Int64?) throws -> BodyStart {
        destination.write(body, at: Int(offset))
        let end = offset + Int64(body.count)
        state.withLock {
            $0.position = end
            $0.written = true
        }
        return .finished(size: end, capWait: .zero)
    }

    public func nextEvent() async throws -> BodyEvent { .finished(position) }

    public var position: Int64 { state.withLock { $0.position } }

    public func drop() {
        state.withLock { if !$0.written { $0.dropped = true } }
    }

    public func cancel() { state.withLock { $0.cancelled = true } }
}
