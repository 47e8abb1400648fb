import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The aria2-compatible endpoint on the network: HTTP `POST /jsonrpc` and a WebSocket on
/// `/jsonrpc`, both answered by one ``Aria2Service``.
public final class RPCServer: Sendable {
    /// The largest request body or WebSocket message read; a larger one is refused.
    public static let largestRequest = 2 * 1024 * 1024
    /// The path aria2's clients post to and open their WebSocket on.
    static let path = "/jsonrpc"

    let channel: any Channel
    public let service: Aria2Service

    private init(channel: any Channel, service: Aria2Service) {
        self.channel = channel
        self.service = service
    }

    /// The port it listens on (the one asked for, or the system's pick for 0).
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Why the endpoint could not listen.
    public enum ListenError: Error, Sendable, Equatable {
        /// Another program has the port (an aria2c, often).
        case taken
        /// The system does not let this user listen there (a port below 1024).
        case forbidden
        /// Anything else, in the system's words.
        case failed(String)
    }

    /// Listens on `host`:`port`.
    public static func start(host: String, port: Int, service: Aria2Service) async throws(ListenError) -> RPCServer {
        do {
            return try await bind(host: host, port: port, service: service)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw .taken
        } catch let error as IOError where error.errnoCode == EACCES {
            throw .forbidden
        } catch {
            throw .failed(String(describing: error))
        }
    }

    /// Serves a listening socket a service manager made and passed in (the server owns it from
    /// here and closes it when it stops).
    public static func start(adopting fd: Int32, service: Aria2Service) async throws(ListenError) -> RPCServer {
        do {
            let channel = try await bootstrap(service).withBoundSocket(fd).get()
            return RPCServer(channel: channel, service: service)
        } catch {
            throw .failed(String(describing: error))
        }
    }

    private static func bind(host: String, port: Int, service: Aria2Service) async throws -> RPCServer {
        let channel = try await bootstrap(service)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port)
            .get()
        return RPCServer(channel: channel, service: service)
    }

    private static func bootstrap(_ service: Aria2Service) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configure(channel, service: service)
                }
            }
    }

    private static func configure(_ channel: any Channel, service: Aria2Service) throws {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: largestRequest,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(Self.isEndpoint(head.uri) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1024,
                            maxAccumulatedFrameSize: largestRequest),
                        RPCWebSocketHandler(service: service),
                    ])
                }
            })
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (
                upgraders: [upgrader],
                completionHandler: { context in
                    context.pipeline.removeHandler(name: RPCHTTPHandler.name, promise: nil)
                }
            ))
        try channel.pipeline.syncOperations.addHandler(RPCHTTPHandler(service: service), name: RPCHTTPHandler.name)
    }

    /// Whether a request target is the endpoint (a query string is allowed and ignored).
    static func isEndpoint(_ uri: String) -> Bool {
        uri == path || uri.hasPrefix(path + "?")
    }

    /// Stops listening; connections open now are closed.
    public func stop() async {
        await service.stop()
        try? await channel.close()
    }
}
