import FoundationEssentials
import HaulAria2Wire
import HaulCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Listens on an engine's WebSocket for aria2's notifications (`aria2.onDownloadStart`, …,
/// `aria2.onDownloadError`): each one only says that something changed, so the session polls
/// at once instead of waiting for its next look. Calls never go this way.
enum RPCNotifications {
    private enum Upgrade: Sendable {
        case socket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    /// Calls `heard` with each notification's method until the socket closes or the task is
    /// cancelled; throws when no WebSocket could be opened.
    static func listen(
        to address: RPCAddress, trustedCertificates: String?, opened: @Sendable () async -> Void,
        heard: @Sendable (String) async -> Void
    ) async throws {
        let tls: NIOSSLContext?
        if address.secure {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if let file = trustedCertificates { configuration.trustRoots = .file(file) }
            tls = try NIOSSLContext(configuration: configuration)
        } else {
            tls = nil
        }
        let hostHeader = address.place
        let path = address.path
        let serverName = address.host.first?.isNumber == true || address.host.contains(":") ? nil : address.host
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: address.host, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
                        maxFrameSize: 1 << 20,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                Upgrade.socket(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                            }
                        })
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: hostHeader)
                    headers.add(name: "Content-Length", value: "0")
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.eventLoop.makeCompletedFuture { Upgrade.refused }
                        })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        guard case .socket(let socket) = try await upgrade.get() else {
            throw RemoteFailure.unreachable("the engine at \(address.place) offers no WebSocket")
        }
        await opened()
        try await socket.executeThenClose { inbound, outbound in
            var text: [UInt8] = []
            for try await frame in inbound {
                switch frame.opcode {
                case .text, .continuation:
                    text.append(contentsOf: frame.unmaskedData.readableBytesView)
                    guard frame.fin else { continue }
                    if let method = JSONValue.parse(text)?["method"]?.string { await heard(method) }
                    text = []
                case .ping:
                    // A client's frames are masked (RFC 6455 §5.3).
                    let pong = WebSocketFrame(
                        fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                    try await outbound.write(pong)
                case .connectionClose:
                    return
                default:
                    continue
                }
            }
        }
    }
}
