import AsyncHTTPClient
import Dispatch
import HaulCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// The HTTP clients the engine uses: `CleartextHTTPClient` for plain `http://` without a proxy, and
/// AsyncHTTPClient for the rest (direct, or one per proxy from the environment).
///
/// AsyncHTTPClient speaks HTTP/2 where the server offers it (ALPN `h2`): the downloads of one
/// host share one connection's streams instead of a TLS handshake each. A range fetched beside
/// others of the same file goes through a second client that speaks only HTTP/1.1, so that each
/// range has a TCP connection of its own: a server that caps each connection would cap an HTTP/2
/// connection's streams together.
///
/// Every client reads in large chunks (NIO's default reads are too small for a large file; see
/// docs/PERFORMANCE.md), follows no redirects itself (the engine checks each hop) and detects
/// stalls. Neither decodes a content coding: the file is saved as the server sent it, as curl,
/// wget and aria2c save it. AsyncHTTPClient uses its read timeout as the stall detector.
///
/// An AsyncHTTPClient is made the first time a URL needs it: a run of plain `http://` downloads
/// never pays for its set-up.
public final class HTTPClientPool: Sendable {
    let settings: HTTPClientSettings
    /// AsyncHTTPClients made so far, by route.
    private let clients = Mutex<[Route: HTTPClient]>([:])

    /// What an AsyncHTTPClient is made for: a proxy (nil: direct), and whether each request has
    /// a connection of its own.
    struct Route: Hashable {
        var proxy: ProxyEnvironment.Endpoint?
        var ownConnection: Bool
    }
    private let cleartext: CleartextHTTPClient
    /// The event loops transfers run on, as task executors.
    public let lanes = TransferLanes(group: MultiThreadedEventLoopGroup.singleton)

    public init(settings: HTTPClientSettings) {
        self.settings = settings
        cleartext = CleartextHTTPClient(
            group: MultiThreadedEventLoopGroup.singleton,
            connectTimeout: settings.connectTimeout,
            stallTimeout: settings.stallTimeout,
            idleTimeout: settings.idleConnectionTimeout,
            readSize: settings.readSize
        )
    }

    /// Starts NIO's event loops on another thread, so that a command about to run downloads
    /// has them ready by the time its state is read.
    public static func warmUp() {
        DispatchQueue.global().async {
            _ = MultiThreadedEventLoopGroup.singleton
        }
    }

    /// The cleartext client, with where to send, when `request` is plain HTTP that no proxy
    /// applies to.
    func cleartextClient(for request: HTTPRequest, proxy: ProxyEnvironment.Endpoint?)
        -> (CleartextHTTPClient, CleartextHTTPClient.Target)?
    {
        guard proxy == nil, let parts = request.parts, let target = CleartextHTTPClient.Target(parts: parts) else {
            return nil
        }
        return (cleartext, target)
    }

    /// The proxy `request` goes through (nil: directly).
    func route(_ request: HTTPRequest) -> ProxyEnvironment.Endpoint? {
        settings.proxies.endpoint(for: request.url, choice: request.proxy)
    }

    func client(for route: Route) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[route] { return client }
            let client = Self.makeClient(settings, route: route)
            clients[route] = client
            return client
        }
    }

    /// Closes every client, waiting at most `patience` for AsyncHTTPClient: its shutdown waits
    /// for a connection still being made, which with a server that accepts and never answers a
    /// TLS handshake is the whole connect timeout (15 s after Ctrl-C). Past that the attempt is
    /// left to end on its own; the engine is stopping and nothing of it is used again.
    public func shutdown(patience: Duration = .seconds(1)) async {
        await cleartext.shutdown()
        let made = clients.withLock { Array($0.values) }
        guard !made.isEmpty else { return }
        _ = await TimeLimit.run(patience) {
            for client in made { try? await client.shutdown() }
        }
    }

    private static func makeClient(_ settings: HTTPClientSettings, route: Route) -> HTTPClient {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: TimeAmount(settings.connectTimeout),
                read: TimeAmount(settings.stallTimeout)
            ),
            // Bytes as sent: a `.tar.gz` served with `Content-Encoding: gzip` stays a `.tar.gz`,
            // resumes by Range, and nothing is ever inflated (no decompression bomb).
            decompression: .disabled
        )
        // A failed connection (refused, or a TLS handshake that failed) fails the request at once
        // and the engine's retry policy decides, as for plain http: AsyncHTTPClient would retry
        // it silently until the connect timeout, so an untrusted certificate took 15 s to report.
        config.connectionPool.retryConnectionEstablishment = false
        config.httpVersion = route.ownConnection ? .http1Only : .automatic
        // The pool's own cap per host is above haul's, which decides. Over HTTP/2 the pool keeps
        // one connection per host and its streams carry every request.
        config.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = settings.connectionsPerHost
        if let file = settings.trustedCertificates {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(file)
            config.tlsConfiguration = tls
        }
        if let proxy = route.proxy {
            switch proxy.kind {
            case .http:
                let authorization = proxy.user.map {
                    HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
                }
                config.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
            case .socks5, .socks5h:
                // AsyncHTTPClient's SOCKS client sends the name and no credentials: a proxy that
                // needs either goes through the relay, which does its handshake (else, should the
                // relay not start, the proxy itself, to fail in its own words).
                if SOCKSRelay.isNeeded(for: proxy), let relay = try? SOCKSRelay.relay(for: proxy) {
                    config.proxy = .socksServer(host: "127.0.0.1", port: relay.port)
                } else {
                    config.proxy = .socksServer(host: proxy.host, port: proxy.port)
                }
            }
        }
        let readSize = settings.readSize
        // Called once AsyncHTTPClient has set up a connection's pipeline, before its first request.
        config.http1_1ConnectionDebugInitializer = { channel in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                try pipeline.addHandler(
                    ResponseHeadCleaner(), position: .before(try pipeline.handler(type: HTTPRequestEncoder.self)))
            }.flatMap {
                channel.setOption(
                    ChannelOptions.recvAllocator,
                    value: AdaptiveRecvByteBufferAllocator(minimum: 64 * 1024, initial: readSize, maximum: 4 * readSize)
                )
            }
        }
        // An HTTP/2 connection reads its streams' frames in the same large chunks. Its heads are
        // HPACK-coded, which NIO's HTTP/2 decoder checks itself, so no head is cleaned there.
        config.http2ConnectionDebugInitializer = { channel in
            channel.setOption(
                ChannelOptions.recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 64 * 1024, initial: readSize, maximum: 4 * readSize)
            )
        }
        return HTTPClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: config)
    }
}
