import AsyncHTTPClient
import Dispatch
import HaulCore
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// The HTTP clients the engine uses: `PlainHTTPClient` for plain `http://` without a proxy, and
/// AsyncHTTPClient for the rest (one direct, one per proxy from the environment).
///
/// Every client reads in large chunks (FIELD-NOTES: 256 KiB reads made AsyncHTTPClient faster
/// than curl), follows no redirects itself (the engine checks each hop) and detects stalls.
/// AsyncHTTPClient decodes gzip/deflate a server sends unasked (the plain client leaves those to it)
/// and uses its read timeout as the stall detector.
///
/// An AsyncHTTPClient is made the first time a URL needs it: a run of plain `http://` downloads
/// never pays for one (its setup was a tenth of an idle `haul run`).
final class HTTPClientPool: Sendable {
    private let configuration: EngineConfiguration
    /// AsyncHTTPClients made so far, by proxy (nil: direct).
    private let clients = Mutex<[ProxyEnvironment.Endpoint?: HTTPClient]>([:])
    private let plain: PlainHTTPClient
    /// The event loops transfers run on, as task executors.
    let lanes = TransferLanes(group: MultiThreadedEventLoopGroup.singleton)

    init(configuration: EngineConfiguration) {
        self.configuration = configuration
        plain = PlainHTTPClient(
            group: MultiThreadedEventLoopGroup.singleton,
            connectTimeout: configuration.connectTimeout,
            stallTimeout: configuration.stallTimeout,
            idleTimeout: configuration.idleConnectionTimeout,
            readSize: configuration.readSize
        )
    }

    /// Starts NIO's event loops on another thread, so that a command about to run downloads
    /// has them ready by the time its state is read (~0.4 ms of threads and epoll set-up off
    /// the path to the first request), and runs a made-up exchange through the plain client's
    /// handlers there (see ``PlainHTTPClient/warmUp()``).
    static func warmUp() {
        DispatchQueue.global().async {
            _ = MultiThreadedEventLoopGroup.singleton
            PlainHTTPClient.warmUp()
        }
    }

    /// The lean client, with where to send, when `url` is plain HTTP that no proxy applies to.
    /// `parts`, when given, is `url` already split.
    func plainClient(for url: String, parts: URLParts? = nil) -> (PlainHTTPClient, PlainHTTPClient.Target)? {
        guard configuration.proxies.endpoint(for: url) == nil else { return nil }
        let target = if let parts { PlainHTTPClient.Target(parts: parts) } else { PlainHTTPClient.Target(url: url) }
        guard let target else { return nil }
        return (plain, target)
    }

    func client(for url: String) -> HTTPClient {
        let proxy = configuration.proxies.endpoint(for: url)
        return clients.withLock { clients in
            if let client = clients[proxy] { return client }
            let client = Self.makeClient(configuration, proxy: proxy)
            clients[proxy] = client
            return client
        }
    }

    /// Closes every client, waiting at most `patience` for AsyncHTTPClient: its shutdown waits
    /// for a connection still being made, which with a server that accepts and never answers a
    /// TLS handshake is the whole connect timeout (15 s after Ctrl-C). Past that the attempt is
    /// left to end on its own; the engine is stopping and nothing of it is used again.
    func shutdown(patience: Duration = .seconds(1)) async {
        await plain.shutdown()
        let made = clients.withLock { Array($0.values) }
        guard !made.isEmpty else { return }
        _ = await TimeLimit.run(patience) {
            for client in made { try? await client.shutdown() }
        }
    }

    private static func makeClient(_ configuration: EngineConfiguration, proxy: ProxyEnvironment.Endpoint?)
        -> HTTPClient
    {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .milliseconds(Int64(configuration.connectTimeout * 1000)),
                read: .milliseconds(Int64(configuration.stallTimeout * 1000))
            ),
            // haul asks for identity; a server that encodes anyway is decoded, so the file holds
            // the resource's bytes. The ratio limit stops decompression bombs.
            decompression: .enabled(limit: .ratio(1000))
        )
        // A failed connection (refused, or a TLS handshake that failed) fails the request at once
        // and the engine's retry policy decides, as for plain http: AsyncHTTPClient would retry
        // it silently until the connect timeout, so an untrusted certificate took 15 s to report.
        config.connectionPool.retryConnectionEstablishment = false
        if let file = configuration.trustedCertificates {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(file)
            config.tlsConfiguration = tls
        }
        if let proxy {
            let authorization = proxy.user.map {
                HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
            }
            config.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
        }
        let readSize = configuration.readSize
        config.http1_1ConnectionDebugInitializer = { channel in
            channel.setOption(
                ChannelOptions.recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 64 * 1024, initial: readSize, maximum: 4 * readSize)
            )
        }
        return HTTPClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: config)
    }
}
