import AsyncHTTPClient
import FoundationEssentials
import Glibc
import HaulAria2Wire
import HaulCore
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// What went wrong talking to a remote engine, in a sentence a person understands.
public enum RemoteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine could not be reached or the connection broke: worth retrying.
    case unreachable(String)
    /// The engine answered the call with an error (a wrong secret, an unknown GID…).
    case refused(String)
    /// The answer was not what a JSON-RPC engine sends.
    case malformed(String)
    /// The engine cannot do what was asked (a haul-only feature against aria2).
    case unsupported(String)

    public var description: String {
        switch self {
        case .unreachable(let text), .refused(let text), .malformed(let text), .unsupported(let text): text
        }
    }

    /// Whether the link itself is in trouble (rather than one call).
    var isLinkProblem: Bool {
        switch self {
        case .unreachable, .malformed: true
        case .refused, .unsupported: false
        }
    }
}

/// One JSON-RPC call: a method and its parameters, the secret not yet among them.
struct RemoteCall: Sendable, Equatable {
    let method: String
    let params: [JSONValue]

    init(_ method: String, _ params: [JSONValue] = []) {
        self.method = method
        self.params = params
    }
}

/// Sends calls to an engine's JSON-RPC over HTTP POST (AsyncHTTPClient: keep-alive, TLS with
/// the system's certificates or `SSL_CERT_FILE`).
final class RPCTransport: Sendable {
    let address: RPCAddress
    private let token: JSONValue?
    private let client: HTTPClient
    /// The most an answer may be: 1,000 downloads are about 1 MB.
    static let largestAnswer = 64 << 20

    init(address: RPCAddress, secret: String?, trustedCertificates: String?) {
        self.address = address
        token = secret.map { .string("token:" + $0) }
        client = Self.client(trusting: trustedCertificates)
    }

    /// One client per process and trust file, never shut down: it lives as long as the process.
    private static let clients = Mutex<[String: HTTPClient]>([:])

    private static func client(trusting file: String?) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[file ?? ""] { return client }
            var configuration = HTTPClient.Configuration()
            configuration.decompression = .disabled
            configuration.timeout = .init(connect: .seconds(5), read: .seconds(15))
            // A refused connection is said at once: the session retries with its own waits.
            configuration.connectionPool.retryConnectionEstablishment = false
            if let file {
                var tls = TLSConfiguration.makeClientConfiguration()
                tls.trustRoots = .file(file)
                configuration.tlsConfiguration = tls
            }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[file ?? ""] = client
            return client
        }
    }

    /// The result of `call`; throws the engine's error as `.refused`.
    func call(_ call: RemoteCall) async throws(RemoteFailure) -> JSONValue {
        let answer = try await post(Self.request(call, token: token, id: 1))
        return try Self.result(of: answer)
    }

    /// Several calls in one request (`system.multicall`): each one's result or failure.
    func multicall(_ calls: [RemoteCall]) async throws(RemoteFailure) -> [Result<JSONValue, RemoteFailure>] {
        guard !calls.isEmpty else { return [] }
        let inner = calls.map { call in
            JSONValue.object([
                "methodName": .string(call.method), "params": .array((token.map { [$0] } ?? []) + call.params),
            ])
        }
        let body = JSONValue.object([
            "jsonrpc": .string("2.0"), "id": .int(1), "method": .string("system.multicall"),
            "params": .array([.array(inner)]),
        ])
        let results = try Self.result(of: try await post(body))
        guard let each = results.array, each.count == calls.count else {
            throw .malformed("the engine answered \(calls.count) calls with something else than \(calls.count) results")
        }
        return each.map { item in
            // aria2 wraps each result in a one-element array, and sends each failure as an object.
            if let wrapped = item.array, wrapped.count == 1 { return .success(wrapped[0]) }
            if item["code"] != nil || item["faultCode"] != nil { return .failure(Self.failure(item)) }
            return .failure(.malformed("the engine sent a result that is not one of a multicall"))
        }
    }

    static func request(_ call: RemoteCall, token: JSONValue?, id: Int) -> JSONValue {
        let params: [JSONValue] =
            call.method.hasPrefix("system.list") ? call.params : (token.map { [$0] } ?? []) + call.params
        return .object([
            "jsonrpc": .string("2.0"), "id": .int(Int64(id)), "method": .string(call.method), "params": .array(params),
        ])
    }

    /// The `result` of a JSON-RPC answer, or its `error` as a failure.
    static func result(of answer: JSONValue) throws(RemoteFailure) -> JSONValue {
        if let error = answer["error"], error != .null { throw failure(error) }
        guard let result = answer["result"] else {
            throw .malformed("the engine's answer has neither a result nor an error")
        }
        return result
    }

    private static func failure(_ error: JSONValue) -> RemoteFailure {
        let message = error["message"]?.string ?? error["faultString"]?.string ?? "no reason given"
        if message == "Unauthorized" { return .refused("the engine refused the secret (check --secret)") }
        return .refused("the engine refused: " + TerminalText.sanitize(String(message.prefix(300))))
    }

    private func post(_ body: JSONValue) async throws(RemoteFailure) -> JSONValue {
        var request = HTTPClientRequest(url: address.callURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body.bytes))
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(15))
            bytes = try await response.body.collect(upTo: Self.largestAnswer)
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw .malformed("the engine at \(address.place) sent an answer over 64 MiB")
        } catch {
            throw .unreachable("cannot reach the engine at \(address.place): \(Self.words(error))")
        }
        guard let answer = JSONValue.parse(bytes.readableBytesView) else {
            let status = response.status.code
            throw .malformed(
                "the engine at \(address.place) answered HTTP \(status) without JSON-RPC"
                    + (status == 404 ? " (is the path right? aria2 serves /jsonrpc)" : ""))
        }
        return answer
    }

    /// A connection error in words.
    static func words(_ error: any Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return "the connection timed out"
            case .readTimeout, .deadlineExceeded: return "it did not answer in time"
            case .remoteConnectionClosed: return "it closed the connection"
            default: break
            }
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        if text.contains("NIOSSL") || text.contains("BoringSSL") || text.contains("certificate") {
            return "its TLS certificate is not trusted (set SSL_CERT_FILE to its CA's certificate)"
        }
        return TerminalText.sanitize(String(text.prefix(200)))
    }
}
