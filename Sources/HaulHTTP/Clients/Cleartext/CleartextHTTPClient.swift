import FoundationEssentials
import HaulCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// HTTP/1.1 over TCP without TLS, for the common case: an `http://` URL that no proxy applies to.
///
/// Keeps idle keep-alive connections per host and delivers each response to a `ResponseSink` on
/// the connection's event loop; NIO's HTTP/1.1 codec reads and writes the messages.
/// AsyncHTTPClient serves TLS, proxies and encoded bodies. This connection handling stays while
/// it measurably helps many small files (docs/PERFORMANCE.md, "Cleartext HTTP client").
final class CleartextHTTPClient: Sendable {
    /// Where a request goes and what it asks for.
    struct Target: Sendable {
        let host: String
        let port: Int
        /// Path and query, percent-encoded, as sent on the request line.
        let uri: String
        /// The `Host` header's value.
        var hostHeader: String {
            // An IPv6 literal. (A byte search: with Foundation imported, `contains(":")` is
            // Foundation's substring search, a measurable cost once per request.)
            let name = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
            return port == 80 ? name : "\(name):\(port)"
        }

        /// The target of an `http://` URL, split (a transfer splits its URL for itself too); nil
        /// for any other scheme, a URL without a host, or an internationalized host name (left to
        /// AsyncHTTPClient).
        init?(parts: URLParts) {
            guard parts.scheme == "http", parts.host.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            host = parts.host
            port = parts.port ?? 80
            uri = parts.requestTarget
        }

        var endpoint: Endpoint { Endpoint(host: host, port: port) }
    }

    struct Endpoint: Hashable, Sendable {
        let host: String
        let port: Int
    }

    /// A request in flight: its response is going to `sink`.
    struct Exchange: Sendable {
        let sink: ResponseSink
        let head: HTTPResponseHead
        let channel: Channel

        /// Ends the request (the connection is closed; the sink fails).
        func cancel() { CleartextHTTPClient.cancel(sink, on: channel) }
    }

    /// The pooled connection was closed by the server before it answered: send again on a new one.
    struct StaleConnection: Error {}

    private let group: EventLoopGroup
    private let connectTimeout: TimeAmount
    private let stallTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let readSize: Int
    private let idle = Mutex<[Endpoint: [Channel]]>([:])
    /// Idle connections kept per host, beyond which a finished one is closed.
    private static let idleLimit = 16

    init(
        group: EventLoopGroup, connectTimeout: Duration, stallTimeout: Duration, idleTimeout: Duration, readSize: Int
    ) {
        self.group = group
        self.connectTimeout = TimeAmount(connectTimeout)
        self.stallTimeout = TimeAmount(stallTimeout)
        self.idleTimeout = TimeAmount(idleTimeout)
        self.readSize = readSize
    }

    /// Sends `head` (a GET) to `target` and returns once the response head has arrived; the body
    /// waits (after a read-ahead) for the caller to choose what to do with it. `makeSink` is given
    /// the event loop of the connection the request goes out on.
    func execute(
        _ head: HTTPRequestHead, to target: Target, makeSink: (EventLoop) -> ResponseSink
    ) async throws -> Exchange {
        var fresh = false
        while true {
            let (channel, reused) = try await connection(to: target.endpoint, fresh: fresh)
            let sink = makeSink(channel.eventLoop)
            channel.eventLoop.execute {
                do {
                    try channel.pipeline.syncOperations.handler(type: CleartextConnectionHandler.self).start(
                        head, reused: reused, sink: sink)
                } catch {
                    sink.fail(error)
                }
            }
            do {
                let responseHead = try await withTaskCancellationHandler {
                    try await sink.responseHead()
                } onCancel: {
                    Self.cancel(sink, on: channel)
                }
                return Exchange(sink: sink, head: responseHead, channel: channel)
            } catch is StaleConnection {
                fresh = true
            }
        }
    }

    /// Ends the request going to `sink` by closing its connection — unless that request is over
    /// and the connection already carries another one.
    static func cancel(_ sink: ResponseSink, on channel: Channel) {
        channel.eventLoop.execute {
            try? channel.pipeline.syncOperations.handler(type: CleartextConnectionHandler.self).cancel(sink)
        }
    }

    /// Closes the idle connections, all at once (one after another, each waited for, took a
    /// trip to its event loop and back per connection).
    func shutdown() async {
        let channels = idle.withLock { pool in
            defer { pool = [:] }
            return pool.values.flatMap { $0 }
        }
        let closed = channels.map { $0.close() }
        for close in closed { try? await close.get() }
    }

    private func connection(to endpoint: Endpoint, fresh: Bool) async throws -> (Channel, reused: Bool) {
        if !fresh {
            while let channel = idle.withLock({ pool in Self.takeIdle(&pool[endpoint]) }) {
                if channel.isActive { return (channel, true) }
            }
        }
        let stallTimeout = stallTimeout
        let idleTimeout = idleTimeout
        let readSize = readSize
        // `any()` is the calling thread's own loop when the caller runs on one (a transfer's lane).
        let bootstrap = ClientBootstrap(group: group.any())
            .connectTimeout(connectTimeout)
            .channelOption(.autoRead, value: false)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(
                .recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 64 * 1024, initial: readSize, maximum: 4 * readSize)
            )
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addCleartextHTTPHandlers(
                        CleartextConnectionHandler(
                            stallTimeout: stallTimeout,
                            idleTimeout: idleTimeout,
                            onReusable: { [weak self] channel in self?.keep(channel, for: endpoint) },
                            onClosed: { [weak self] channel in self?.forget(channel, for: endpoint) }
                        ))
                }
            }
        // An IP address needs no resolver (whose lookup runs on another thread and back). Its
        // failure is told the way NIO's resolving connect is: "cannot connect to host:port: …".
        guard let address = try? SocketAddress(ipAddress: endpoint.host, port: endpoint.port) else {
            return (try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get(), false)
        }
        do {
            return (try await bootstrap.connect(to: address).get(), false)
        } catch let error as IOError {
            throw TransferFailure(
                .cannotConnect(
                    host: endpoint.host, port: endpoint.port, why: TransferFailure.describe(errno: error.errnoCode)),
                unanswered: TransferFailure.unanswered(errno: error.errnoCode))
        } catch ChannelError.connectTimeout {
            throw TransferFailure(
                .cannotConnect(host: endpoint.host, port: endpoint.port, why: "connection timed out"), unanswered: true)
        }
    }

    /// An idle connection, preferring one on the calling thread's event loop (a transfer on a
    /// lane then stays on its thread; see `TransferLanes`).
    private static func takeIdle(_ channels: inout [Channel]?) -> Channel? {
        let local = channels?.lastIndex { $0.eventLoop.inEventLoop }
        guard let index = local ?? channels?.indices.last else { return nil }
        return channels?.remove(at: index)
    }

    private func keep(_ channel: Channel, for endpoint: Endpoint) {
        let kept = idle.withLock { pool in
            guard pool[endpoint, default: []].count < Self.idleLimit else { return false }
            pool[endpoint, default: []].append(channel)
            return true
        }
        if !kept { channel.close(promise: nil) }
    }

    private func forget(_ channel: Channel, for endpoint: Endpoint) {
        idle.withLock { pool in pool[endpoint]?.removeAll { $0 === channel } }
    }
}
