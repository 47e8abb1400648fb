import AsyncHTTPClient
import HaulCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// The engine's ``HTTPTransport``: plain `http://` without a proxy goes through
/// `CleartextHTTPClient`, everything else (TLS, proxies) through AsyncHTTPClient. Either way the
/// body streams into the `.part` through a ``ResponseSink`` exactly as it was sent: a content
/// coding the server applied is never undone.
public struct ClientTransport: HTTPTransport {
    let pool: HTTPClientPool
    /// What the reads of this transfer are held to.
    let pacing: any ReadPacing

    public init(pool: HTTPClientPool, pacing: any ReadPacing) {
        self.pool = pool
        self.pacing = pacing
    }

    public func send(_ request: HTTPRequest) async throws -> ClientResponse {
        var headers = HTTPHeaders()
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        let proxy = pool.route(request)
        if let (client, target) = pool.cleartextClient(for: request, proxy: proxy) {
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.uri)
            if !headers.contains(name: "host") { head.headers.add(name: "Host", value: target.hostHeader) }
            head.headers.add(contentsOf: headers)
            let exchange = try await client.execute(head, to: target) { loop in makeSink(on: loop) }
            return ClientResponse(exchange.head, sink: exchange.sink, cancel: exchange.cancel)
        }
        let route = HTTPClientPool.Route(proxy: proxy, ownConnection: request.ownConnection)
        return try await sendThroughAsyncHTTPClient(request.url, headers: headers, route: route)
    }

    private func sendThroughAsyncHTTPClient(_ url: String, headers: HTTPHeaders, route: HTTPClientPool.Route)
        async throws -> ClientResponse
    {
        // The transfer's own lane when it runs on one (see `TransferLanes`).
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let sink = makeSink(on: loop)
        let request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
        let task = pool.client(for: route).execute(request: request, delegate: sink, eventLoop: .delegate(on: loop))
        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                try await sink.responseHead()
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw TransferFailure.connectFailure(error, url: url, proxy: route.proxy) ?? error
        }
        return ClientResponse(head, sink: sink, cancel: { task.cancel() })
    }

    private func makeSink(on loop: EventLoop) -> ResponseSink {
        ResponseSink(
            loop: loop, pacing: pacing, clock: pool.settings.clock, progressInterval: pool.settings.progressInterval)
    }
}

/// A response on one of the engine's clients; its body goes into a `.part` through its sink.
public struct ClientResponse: HTTPResponse {
    public let head: ResponseHead
    let sink: ResponseSink
    private let cancelRequest: @Sendable () -> Void

    init(_ received: HTTPResponseHead, sink: ResponseSink, cancel: @escaping @Sendable () -> Void) {
        head = ResponseHead(
            status: Int(received.status.code),
            fields: received.headers.map { HTTPField(name: $0.name, value: $0.value) },
            multiplexed: received.version.major == 2)
        self.sink = sink
        cancelRequest = cancel
    }

    public func startWriting(to destination: any BodyDestination, at offset: Int64, total: Int64?) throws
        -> BodyStart
    {
        try sink.startWriting(to: destination, at: offset, total: total)
    }

    public func nextEvent() async throws -> BodyEvent { try await sink.nextEvent() }

    /// Writes the whole body into `destination`, its first byte at `offset`, and returns once
    /// the last one is written: for a body used only whole (a document, a web seed's piece, bytes
    /// to compare), whose progress no one follows.
    public func writeWhole(to destination: any BodyDestination, at offset: Int64 = 0, total: Int64? = nil)
        async throws
    {
        guard case .streaming = try startWriting(to: destination, at: offset, total: total) else { return }
        while true {
            if case .finished = try await nextEvent() { return }
        }
    }

    public var position: Int64 { sink.position }

    /// Stops writing at `end` (a piece's new end), or where the body has got to if that is
    /// further; returns where it stops. A body cut short of its end is to be cancelled (``wasCut``).
    public func stopWriting(at end: Int64) -> Int64 { sink.stop(at: end) }

    /// Whether writing stopped at a piece's end before the body's own.
    public var wasCut: Bool { sink.wasCut }

    public func drop() {
        if let length = head.contentLength, length <= 64 * 1024 {
            sink.discard()
        } else {
            cancelRequest()
        }
    }

    public func cancel() { cancelRequest() }
}
