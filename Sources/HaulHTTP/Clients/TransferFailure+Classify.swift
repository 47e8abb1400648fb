import AsyncHTTPClient
import HaulCore
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// What the errors of AsyncHTTPClient, NIO and the file system mean for a transfer: a reason in
/// haul's terms, and whether another attempt may help.
extension TransferFailure {
    public static func classify(_ error: Error, stallTimeout: Duration) -> TransferFailure {
        switch error {
        case let e as TransferFailure:
            return e
        case let e as FileError:
            return TransferFailure(e.isDiskFull ? .diskFull(shortfall: nil) : .file(e.description), isTransient: false)
        case is CleartextConnectionHandler.RefusedRequest:
            return TransferFailure(.requestHeaderRefused)
        case let e as HTTPClientError:
            if e == .readTimeout { return TransferFailure(.stalled(seconds: Int(stallTimeout.seconds))) }
            if e == .connectTimeout {
                return TransferFailure(.connectionFailed("connection timed out"), unanswered: true)
            }
            if e == .remoteConnectionClosed { return TransferFailure(.serverClosedConnection) }
            if e == .deadlineExceeded { return TransferFailure(.connectionFailed("the request took too long")) }
            if e == .invalidURL || e == .emptyHost || e == .emptyScheme {
                return TransferFailure(.other("the address is not a valid URL"), isTransient: false)
            }
            return TransferFailure(.connectionFailed("HTTP error (\(e))"))
        case let e as IOError:
            return TransferFailure(
                .connectionFailed(describe(errno: e.errnoCode)), unanswered: unanswered(errno: e.errnoCode))
        case let e as HTTPParserError:
            if case .invalidEOFState = e { return TransferFailure(.bodyCutShort) }
            // A server that sends garbage once will send it again: no retries.
            return TransferFailure(.malformedResponse("\(e)"))
        case let e as NIOHTTP2Errors.StreamClosed where e.errorCode == .refusedStream || e.errorCode == .cancel:
            // A stream the server never answered: NIO closes those past a GOAWAY's last stream
            // with CANCEL, and a server with no room for one resets it with REFUSED_STREAM.
            return TransferFailure(.serverClosedConnection, unprocessed: true)
        case let e as ChannelError:
            if case .connectTimeout = e {
                return TransferFailure(.connectionFailed("connection timed out"), unanswered: true)
            }
            return TransferFailure(.connectionFailed("connection error (\(e))"))
        case let e as NIOConnectionError:
            // A name the resolver says does not exist will not exist a few seconds later: as
            // curl, wget and aria2c do, the download fails at once instead of asking again.
            return TransferFailure(
                .cannotConnect(host: e.host, port: e.port, why: reasons(e)), isTransient: !namesNoHost(e),
                unanswered: unanswered(e))
        default:
            if let tls = TLSFailure.classify(error) { return tls }
            return TransferFailure(.connectionFailed(TerminalText.sanitize(String(describing: error))))
        }
    }

    /// Why every address of a failed connect was refused, in words: "connection refused".
    static func reasons(_ error: NIOConnectionError) -> String {
        var reasons: [String] = []
        for failure in error.connectionErrors {
            let reason: String
            switch failure.error {
            case let e as IOError: reason = describe(errno: e.errnoCode)
            case ChannelError.connectTimeout: reason = "connection timed out"
            case let e: reason = TerminalText.sanitize(String(describing: e))
            }
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        if reasons.isEmpty, let lookup = error.dnsAError ?? error.dnsAAAAError {
            if namesNoHost(error) {
                reasons.append("no such host")
            } else if let unknown = lookup as? SocketAddressError.UnknownHost, unknown.errorCode == Int(EAI_AGAIN) {
                reasons.append("the name server did not answer")
            } else {
                reasons.append("name lookup failed (\(TerminalText.sanitize(String(describing: lookup))))")
            }
        }
        return reasons.isEmpty ? "no address to connect to" : reasons.joined(separator: "; ")
    }

    /// Whether nothing answered a connect: every address had no route or timed out, or, with no
    /// address tried, the name server did not answer (`EAI_AGAIN`).
    static func unanswered(_ error: NIOConnectionError) -> Bool {
        guard error.connectionErrors.isEmpty else {
            return error.connectionErrors.allSatisfy { failure in
                switch failure.error {
                case let e as IOError: return unanswered(errno: e.errnoCode)
                case ChannelError.connectTimeout: return true
                default: return false
                }
            }
        }
        let lookups = [error.dnsAError, error.dnsAAAAError].compactMap { $0 }
        return !lookups.isEmpty
            && lookups.allSatisfy { ($0 as? SocketAddressError.UnknownHost)?.errorCode == Int(EAI_AGAIN) }
    }

    /// No route to the network or the host, or a connect that timed out.
    static func unanswered(errno code: Int32) -> Bool { [ENETUNREACH, EHOSTUNREACH, ETIMEDOUT].contains(code) }

    /// Whether the resolver answered that the host's name does not exist (`EAI_NONAME`, for
    /// every address family asked), as opposed to a lookup that could not be made.
    static func namesNoHost(_ error: NIOConnectionError) -> Bool {
        guard error.connectionErrors.isEmpty else { return false }
        let lookups = [error.dnsAError, error.dnsAAAAError].compactMap { $0 }
        return !lookups.isEmpty
            && lookups.allSatisfy { ($0 as? SocketAddressError.UnknownHost)?.errorCode == Int(EAI_NONAME) }
    }

    /// A failed connect on AsyncHTTPClient's path, naming where: "cannot connect to
    /// example.org:443: connection refused", or "… to the proxy host:port: …" (AsyncHTTPClient
    /// reports a refused connect as a bare errno). Nil for any other error, and for a direct
    /// ``NIOConnectionError``, which `classify` already describes with its host.
    static func connectFailure(_ error: any Error, url: String, proxy: ProxyEnvironment.Endpoint?) -> TransferFailure? {
        let host: String
        let port: Int
        if let proxy {
            (host, port) = ("the proxy " + TerminalText.sanitize(proxy.host), proxy.port)
        } else if let parts = URLParts(url) {
            (host, port) = (parts.host, parts.port ?? (parts.scheme == "https" ? 443 : 80))
        } else {
            return nil
        }
        // Through the SOCKS relay, what the proxy said is what happened, whatever the client saw.
        if let proxy, SOCKSRelay.isNeeded(for: proxy), let problem = SOCKSRelay.problem(for: proxy) {
            return TransferFailure(.cannotConnect(host: host, port: port, why: problem))
        }
        switch error {
        case let e as IOError where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(e.errnoCode):
            return TransferFailure(
                .cannotConnect(host: host, port: port, why: describe(errno: e.errnoCode)),
                unanswered: unanswered(errno: e.errnoCode))
        case let e as NIOConnectionError where proxy != nil:
            return TransferFailure(
                .cannotConnect(host: host, port: port, why: reasons(e)), isTransient: !namesNoHost(e),
                unanswered: unanswered(e))
        case let e as HTTPClientError where proxy != nil:
            switch e {
            case .invalidProxyResponse:
                return TransferFailure(
                    .cannotConnect(
                        host: host, port: port,
                        why: "it refused to connect to the server (wrong or missing proxy credentials?)"))
            case .socksHandshakeTimeout:
                return TransferFailure(.cannotConnect(host: host, port: port, why: "its SOCKS handshake timed out"))
            case .proxyAuthenticationRequired:
                return TransferFailure(
                    .cannotConnect(host: host, port: port, why: "it asks for credentials (user:password@ in its URL)"))
            default:
                return nil
            }
        case _ where proxy != nil && String(reflecting: type(of: error)).hasPrefix("NIOSOCKS."):
            // NIO's SOCKS client's errors (its module is AsyncHTTPClient's, not imported here).
            let text = String(describing: error)
            let why =
                text.contains("InvalidAuthenticationSelection")
                ? "it asks for credentials (user:password@ in its URL)"
                : "it refused the connection (\(TerminalText.sanitize(String(text.prefix(80)))))"
            return TransferFailure(.cannotConnect(host: host, port: port, why: why))
        default:
            return nil
        }
    }

    static func describe(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "connection reset by the server"
        case EPIPE: return "connection broken"
        case ETIMEDOUT: return "connection timed out"
        case ENETUNREACH, EHOSTUNREACH: return "network unreachable"
        default: return String(cString: strerror(code))
        }
    }
}
