import FoundationEssentials
import HaulCore

/// What a transfer asks the server for: the download's address, its own headers, and what it
/// knows of the remote file from earlier responses.
public struct TransferTarget: Sendable, Equatable {
    /// The URL the user asked for; every attempt starts here again, not at a redirect's target.
    public var url: String
    public var headers: [RequestHeader]
    /// Validators of the remote file, for `If-Range` and to tell a changed file from one served
    /// without ranges.
    public var etag: String?
    public var lastModified: String?
    /// The download's cookies (from its cookies.txt and from responses), if it has any.
    public var cookies: CookieJar?
    /// The download's own proxy choice, and the saved ones (global, per host), resolved for the
    /// host of each request: a redirect to another host may take another proxy.
    public var proxy: ProxyChoice?
    public var proxies: ProxySettings
    /// The per-host headers, resolved for the host of each request like the proxies.
    public var hosts: HostSettings

    public init(
        url: String, headers: [RequestHeader] = [], etag: String? = nil, lastModified: String? = nil,
        proxy: ProxyChoice? = nil, proxies: ProxySettings = ProxySettings(), hosts: HostSettings = HostSettings()
    ) {
        self.hosts = hosts
        self.proxy = proxy
        self.proxies = proxies
        self.url = url
        self.headers = headers
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// How a transfer talks HTTP, whatever carries it: which headers a request has, which redirects
/// are followed, and what a response means for the `.part` (RFC 9110 ranges and conditional
/// requests). It drives an ``HTTPTransport`` and does no I/O of its own, so every path runs in
/// tests against a transport that answers from memory.
public struct TransferPolicy: Sendable {
    public var userAgent: String
    public var maxRedirects: Int
    /// How often one attempt may start over from the first byte before it counts as failed.
    public var maxRestarts: Int

    public init(userAgent: String, maxRedirects: Int = 20, maxRestarts: Int = 2) {
        self.userAgent = userAgent
        self.maxRedirects = maxRedirects
        self.maxRestarts = maxRestarts
    }

    /// The body a transfer writes, and what the engine learns from its response.
    public struct Body<Response: HTTPResponse>: Sendable {
        public var response: Response
        /// Where in the file the body starts: the `.part`'s size, or 0 when it starts over.
        public var offset: Int64
        /// The file's full size, when known.
        public var total: Int64?
        /// Why a resume became a download from the first byte.
        public var startOver: StartOverReason?
        /// Whether the server honours ranges for this file; nil when it did not say.
        public var resumable: Bool?
        /// The URL that answered, after redirects.
        public var finalURL: String
        /// Mirrors, Metalinks and digests the response and its redirects named.
        public var hints = MirrorHints()
    }

    /// What an opened transfer does next.
    public enum Opened<Response: HTTPResponse>: Sendable {
        /// Write this body.
        case body(Body<Response>)
        /// The `.part` already holds the whole file (416 at the full size): place it.
        case complete(total: Int64)
    }

    /// Asks for the rest of the file: from `partSize` when there is a `.part` and ranges are
    /// usable, from the first byte otherwise. Starts over (after `emptyPart` has emptied the
    /// `.part`) when the response says the part cannot be used, at most ``maxRestarts`` times.
    /// Updates `target`'s validators from the response that will be written. `size` is the
    /// file's size as earlier responses gave it: a range of a file of another size is of another
    /// version, whatever the validators say (a server may send none).
    public func open<Transport: HTTPTransport>(
        _ target: inout TransferTarget, partSize: Int64?, size: Int64? = nil, over transport: Transport,
        emptyPart: (StartOverReason) async throws -> Void
    ) async throws -> Opened<Transport.Response> {
        var partSize = partSize
        var restarts = 0
        func restart(_ why: StartOverReason) throws(TransferFailure) {
            restarts += 1
            guard restarts <= maxRestarts else { throw TransferFailure(.startedOverTooOften(why)) }
        }
        while true {
            let offset = partSize ?? 0
            var hints = MirrorHints()
            let (response, finalURL) = try await send(target, from: target.url, over: transport, hints: &hints) {
                url in request(for: url, of: target, offset: offset)
            }
            var bodyTaken = false
            defer { if !bodyTaken { response.drop() } }
            let head = response.head
            switch ResponseInterpreter.interpret(
                head, requestedOffset: offset, previousETag: target.etag, previousLastModified: target.lastModified,
                previousSize: size)
            {
            case .redirect:
                preconditionFailure("send(_:offset:over:) follows every redirect")
            case .fail(let failure):
                throw failure
            case .restart(let why):
                try restart(why)
                try await emptyPart(why)
                partSize = 0
            case .alreadyComplete(let total):
                return .complete(total: total)
            case .write(let writeOffset, let total, let startOver):
                let body = Body(
                    response: response, offset: writeOffset, total: total, startOver: startOver,
                    resumable: Self.resumable(head, startOver: startOver), finalURL: finalURL, hints: hints)
                target.etag = head["etag"]
                target.lastModified = head["last-modified"]
                bodyTaken = true
                return .body(body)
            }
        }
    }

    /// Sends the request for `target` from `offset`, following up to ``maxRedirects`` http(s)
    /// redirects; returns the first response that is not a redirect, and the URL that sent it.
    public func send<Transport: HTTPTransport>(_ target: TransferTarget, offset: Int64, over transport: Transport)
        async throws -> (Transport.Response, String)
    {
        try await send(target, from: target.url, over: transport) { url in request(for: url, of: target, offset: offset)
        }
    }

    /// Sends one connection's request for `range` of a segmented download to `url` (where the
    /// first response came from), following redirects as ``send(_:offset:over:)`` does. What the
    /// answer means is ``RangeResponseCheck``'s.
    public func send<Transport: HTTPTransport>(
        _ target: TransferTarget, range: Range<Int64>, from url: String, over transport: Transport
    ) async throws -> Transport.Response {
        try await send(target, from: url, over: transport) { url in request(for: url, of: target, range: range) }.0
    }

    private func send<Transport: HTTPTransport>(
        _ target: TransferTarget, from start: String, over transport: Transport, request: (String) -> HTTPRequest
    ) async throws -> (Transport.Response, String) {
        var unused = MirrorHints()
        return try await send(target, from: start, over: transport, hints: &unused, reading: false, request: request)
    }

    /// Follows redirects from `start`; with `reading`, `hints` collects what every hop names
    /// (only the request that opens a download reads them, not each connection's).
    private func send<Transport: HTTPTransport>(
        _ target: TransferTarget, from start: String, over transport: Transport, hints: inout MirrorHints,
        reading: Bool = true, request: (String) -> HTTPRequest
    ) async throws -> (Transport.Response, String) {
        var url = start
        for _ in 0...maxRedirects {
            let response = try await transport.send(request(url))
            if reading { hints.read(response.head, from: url) }
            if let jar = target.cookies {
                jar.store(response.head.fields.filter { $0.name.lowercased() == "set-cookie" }.map(\.value), from: url)
            }
            let status = response.head.status
            guard [301, 302, 303, 307, 308].contains(status) else { return (response, url) }
            response.drop()
            url = try Self.redirect(from: url, status: status, location: response.head["location"])
        }
        throw TransferFailure(.tooManyRedirects(limit: maxRedirects))
    }

    /// The request for `url`, which is `target`'s own URL or where a redirect led.
    ///
    /// Credentials (from the URL, or `Authorization`, `Cookie` and `Proxy-Authorization` headers)
    /// go only to the host the user named, as curl does. A range asks for the rest of the file,
    /// with `If-Range` so a changed file comes back whole instead of spliced.
    public func request(for url: String, of target: TransferTarget, offset: Int64) -> HTTPRequest {
        var request = baseRequest(for: url, of: target)
        if offset > 0 { request.headers += rangeHeaders("bytes=\(offset)-", of: target) }
        return request
    }

    /// The request for `range` of the file (both ends given, as `Range` writes them), with
    /// `If-Range` as for a resume, on a connection of its own (ranges are fetched side by side).
    public func request(for url: String, of target: TransferTarget, range: Range<Int64>) -> HTTPRequest {
        var request = baseRequest(for: url, of: target)
        request.headers += rangeHeaders("bytes=\(range.lowerBound)-\(range.upperBound - 1)", of: target)
        request.ownConnection = true
        return request
    }

    private func rangeHeaders(_ range: String, of target: TransferTarget) -> [HTTPField] {
        var headers = [HTTPField(name: "Range", value: range)]
        if let validator = ResponseInterpreter.ifRangeValidator(etag: target.etag, lastModified: target.lastModified) {
            headers.append(HTTPField(name: "If-Range", value: validator))
        }
        return headers
    }

    private func baseRequest(for url: String, of target: TransferTarget) -> HTTPRequest {
        var headers = [
            HTTPField(name: "User-Agent", value: userAgent), HTTPField(name: "Accept-Encoding", value: "identity"),
        ]
        let original = URLParts(target.url)
        let parts = url == target.url ? original : URLParts(url)
        let sameHost = url == target.url || (parts != nil && parts?.host.lowercased() == original?.host.lowercased())
        // The host's headers (`haul hosts --header`), which the download's own replace.
        for header in target.hosts.headers(for: parts?.host) {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append(HTTPField(name: header.name, value: header.value))
        }
        for header in target.headers {
            if !sameHost, Self.credentialHeaderNames.contains(header.name.lowercased()) { continue }
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append(HTTPField(name: header.name, value: header.value))
        }
        if let cookies = target.cookies?.header(for: url) {
            if let index = headers.firstIndex(where: { $0.name.lowercased() == "cookie" }) {
                headers[index].value += "; " + cookies
            } else {
                headers.append(HTTPField(name: "Cookie", value: cookies))
            }
        }
        // `http://user:password@host/…` is HTTP Basic authentication unless a header says otherwise.
        if let credentials = parts?.credentials ?? (sameHost ? original?.credentials : nil),
            !headers.contains(where: { $0.name.lowercased() == "authorization" })
        {
            let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
            headers.append(HTTPField(name: "Authorization", value: "Basic " + token))
        }
        return HTTPRequest(
            url: url, parts: parts, headers: headers,
            proxy: target.proxies.choice(forHost: parts?.host, own: target.proxy))
    }

    /// Headers that carry credentials: never sent to a host a redirect points at.
    public static let credentialHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Where a redirect from `url` leads: an absolute http(s) URL.
    static func redirect(from url: String, status: Int, location: String?) throws(TransferFailure) -> String {
        guard let location, !location.isEmpty else { throw TransferFailure(.redirectWithoutLocation(status: status)) }
        guard let next = URL(string: location, relativeTo: URL(string: url))?.absoluteURL,
            let scheme = next.scheme?.lowercased()
        else { throw TransferFailure(.invalidRedirect) }
        guard DownloadURL.supportedSchemes.contains(scheme) else { throw TransferFailure(.redirectToScheme(scheme)) }
        return next.absoluteString
    }

    /// Whether the server honours ranges for the file, from a response that will be written.
    static func resumable(_ head: ResponseHead, startOver: StartOverReason?) -> Bool? {
        if head.status == 206 { return true }
        if startOver == .rangesIgnored { return false }
        switch head["accept-ranges"]?.lowercased() {
        case "bytes": return true
        case "none": return false
        default: return nil
        }
    }
}
