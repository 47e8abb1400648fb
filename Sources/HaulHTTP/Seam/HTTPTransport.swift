import HaulCore

/// A GET request as the transfer policy makes it: the URL and every header to send.
public struct HTTPRequest: Sendable, Equatable {
    public let url: String
    /// `url` split as a transport needs it; nil when it does not parse.
    public let parts: URLParts?
    public var headers: [HTTPField]
    /// The proxy it goes through, as the download, its host or the settings chose; nil leaves it
    /// to the environment (`http_proxy`…).
    public var proxy: ProxyChoice?
    /// Whether it needs a TCP connection of its own rather than a stream of a shared HTTP/2
    /// connection: one of several ranges of a file fetched side by side, which a server that caps
    /// each connection would otherwise cap together.
    public var ownConnection: Bool

    public init(url: String, headers: [HTTPField], proxy: ProxyChoice? = nil, ownConnection: Bool = false) {
        self.init(url: url, parts: URLParts(url), headers: headers, proxy: proxy, ownConnection: ownConnection)
    }

    /// With `url` already split by the caller: a request's URL is parsed once.
    init(url: String, parts: URLParts?, headers: [HTTPField], proxy: ProxyChoice?, ownConnection: Bool = false) {
        self.url = url
        self.parts = parts
        self.headers = headers
        self.proxy = proxy
        self.ownConnection = ownConnection
    }

    /// The value of the header `name` (any case), if the request has it.
    public subscript(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The one seam between the transfer policy and the network: sends a request and hands back its
/// response once the head has arrived, with the body waiting to be streamed into a destination.
///
/// The engine's transports are adapters over NIO and AsyncHTTPClient; tests use one that answers
/// from memory. A transport follows no redirects and never retries: the policy decides both.
public protocol HTTPTransport: Sendable {
    associatedtype Response: HTTPResponse

    /// Sends `request` and returns once the response head has arrived. Throws what ended the
    /// request before that (a refused connection, a TLS failure…). Cancelling the calling task
    /// ends the request.
    func send(_ request: HTTPRequest) async throws -> Response
}

/// A response whose head has arrived; its body waits until the caller chooses to write it into a
/// destination, or to drop it.
public protocol HTTPResponse: Sendable {
    /// What the body can be written into: the download's `.part` file in the engine.
    associatedtype Destination

    var head: ResponseHead { get }

    /// Has the body written into `destination` from `offset` on; `total` is the size the file
    /// should end at, when known.
    func startWriting(to destination: Destination, at offset: Int64, total: Int64?) throws -> BodyStart

    /// The next thing that happened to a body being written: its end (or the error that ended
    /// it) first, else the latest progress, else whichever comes next.
    func nextEvent() async throws -> BodyEvent

    /// The file position the body has reached.
    var position: Int64 { get }

    /// Leaves the body unwritten: a small one is read and dropped so the connection can serve the
    /// next request, a larger one ends the request. Does nothing once the body is being written.
    func drop()

    /// Ends the request.
    func cancel()
}

/// What became of a body when the caller chose to write it.
public enum BodyStart: Sendable, Equatable {
    /// It goes on arriving (or failed: `nextEvent` says so); what had arrived is written up to
    /// `position`.
    case streaming(position: Int64)
    /// It had arrived whole and is written; a speed cap asks the caller to wait `capWait`
    /// before going on.
    case finished(size: Int64, capWait: Duration)
}

/// What happened to a body being written.
public enum BodyEvent: Sendable, Equatable {
    /// The file position the body has reached.
    case progress(Int64)
    /// The whole body is written; the file's size.
    case finished(Int64)
}
