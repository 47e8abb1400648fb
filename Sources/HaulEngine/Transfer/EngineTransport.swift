import AsyncHTTPClient
import HaulCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// The engine's ``HTTPTransport``: plain `http://` without a proxy goes through
/// `CleartextHTTPClient`, everything else (TLS, proxies) through AsyncHTTPClient. Either way the
/// body streams into the `.part` through a ``ResponseSink`` exactly as it was sent: a content
/// coding the server applied is never undone.
struct EngineTransport: HTTPTransport {
    let pool: HTTPClientPool
    /// What the reads of this transfer draw from.
    let throttle: Throttle
    let configuration: EngineConfiguration

    func send(_ request: HTTPRequest) async throws -> EngineResponse {
        var headers = HTTPHeaders()
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        let parts = URLParts(request.url)
        if let (client, target) = pool.cleartextClient(for: request.url, parts: parts) {
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.uri)
            if !headers.contains(name: "host") { head.headers.add(name: "Host", value: target.hostHeader) }
            head.headers.add(contentsOf: headers)
            let exchange = try await client.execute(head, to: target) { loop in makeSink(on: loop) }
            return EngineResponse(exchange.head, sink: exchange.sink, cancel: exchange.cancel)
        }
        return try await sendThroughAsyncHTTPClient(request.url, headers: headers)
    }

    private func sendThroughAsyncHTTPClient(_ url: String, headers: HTTPHeaders) async throws -> EngineResponse {
        // The transfer's own lane when it runs on one (see `TransferLanes`).
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let sink = makeSink(on: loop)
        let request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
        let task = pool.client(for: url).execute(request: request, delegate: sink, eventLoop: .delegate(on: loop))
        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                try await sink.responseHead()
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw TransferFailure.connectFailure(error, url: url, proxy: configuration.proxies.endpoint(for: url))
                ?? error
        }
        return EngineResponse(head, sink: sink, cancel: { task.cancel() })
    }

    private func makeSink(on loop: EventLoop) -> ResponseSink {
        ResponseSink(loop: loop, throttle: throttle, progressInterval: configuration.progressInterval)
    }
}

/// A response on one of the engine's clients; its body goes into a `.part` through its sink.
struct EngineResponse: HTTPResponse {
    let head: ResponseHead
    let sink: ResponseSink
    private let cancelRequest: @Sendable () -> Void

    init(_ received: HTTPResponseHead, sink: ResponseSink, cancel: @escaping @Sendable () -> Void) {
        head = ResponseHead(
            status: Int(received.status.code),
            fields: received.headers.map { HTTPField(name: $0.name, value: $0.value) })
        self.sink = sink
        cancelRequest = cancel
    }

    func startWriting(to destination: PartFile.Writer, at offset: Int64, total: Int64?) throws -> BodyStart {
        try sink.startWriting(to: destination, at: offset, total: total)
    }

    func nextEvent() async throws -> BodyEvent { try await sink.nextEvent() }

    var position: Int64 { sink.position }

    func drop() {
        if let length = head.contentLength, length <= 64 * 1024 {
            sink.discard()
        } else {
            cancelRequest()
        }
    }

    func cancel() { cancelRequest() }
}
