import AsyncHTTPClient
import HaulCore
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Why one transfer attempt ended badly, and whether trying again may help.
struct TransferError: Error, CustomStringConvertible {
    var description: String
    var isTransient: Bool
    /// Raw `Retry-After` of the response, if any.
    var retryAfter: String? = nil
    /// Set for ENOSPC: the download pauses until there is room instead of retrying.
    var isDiskFull = false
    /// With `isDiskFull`: how many more bytes the rest of the file needs, when known.
    var shortfall: Int64? = nil

    static func diskFull(shortfall: Int64?) -> TransferError {
        let needs = shortfall.map { "needs \(Formatting.bytes($0)) more" } ?? "needs more space"
        return TransferError(
            description: "disk full — \(needs)", isTransient: false, isDiskFull: true, shortfall: shortfall)
    }

    static func permanent(_ message: String) -> TransferError {
        TransferError(description: message, isTransient: false)
    }
    static func transient(_ message: String) -> TransferError { TransferError(description: message, isTransient: true) }

    /// Maps errors from AsyncHTTPClient, NIO and the file system to a message and a verdict.
    static func classify(_ error: Error, stallTimeout: Double) -> TransferError {
        switch error {
        case let e as TransferError:
            return e
        case let e as FileError:
            return TransferError(description: e.description, isTransient: false, isDiskFull: e.isDiskFull)
        case let e as HTTPClientError:
            if e == .readTimeout { return .transient("stalled: no data for \(Int(stallTimeout)) s") }
            if e == .connectTimeout { return .transient("connection timed out") }
            if e == .remoteConnectionClosed { return .transient("the server closed the connection") }
            if e == .deadlineExceeded { return .transient("request took too long") }
            if e == .invalidURL || e == .emptyHost || e == .emptyScheme { return .permanent("invalid URL") }
            return .transient("HTTP error: \(e)")
        case let e as IOError:
            return .transient(describe(errno: e.errnoCode))
        case is CleartextConnectionHandler.RefusedRequest:
            return .permanent("a request header holds a line break or another character HTTP does not allow")
        case let e as HTTPParserError:
            if case .invalidEOFState = e { return .transient("the connection closed before the body was complete") }
            // A server that sends garbage once will send it again: no retries.
            return .permanent("malformed response from the server (\(e))")
        case let e as ChannelError:
            if case .connectTimeout = e { return .transient("connection timed out") }
            return .transient("connection error (\(e))")
        case let e as NIOConnectionError:
            return .transient(describe(e))
        default:
            if let tls = TLSFailure.classify(error) { return tls }
            return .transient(TerminalText.sanitize(String(describing: error)))
        }
    }

    /// "cannot connect to example.org:80: connection refused", from NIO's account of every
    /// address tried (its own description is a dump of those structures).
    static func describe(_ error: NIOConnectionError) -> String {
        cannotConnect(host: error.host, port: error.port, reasons(error)).description
    }

    /// "cannot connect to example.org:80: connection refused" (transient: servers come back).
    static func cannotConnect(host: String, port: Int, _ reason: String) -> TransferError {
        .transient("cannot connect to \(TerminalText.sanitize(host)):\(port): " + reason)
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
            reasons.append(
                lookup is SocketAddressError.UnknownHost
                    ? "host not found" : "name lookup failed (\(TerminalText.sanitize(String(describing: lookup))))")
        }
        return reasons.isEmpty ? "no address to connect to" : reasons.joined(separator: "; ")
    }

    /// A failed connect on AsyncHTTPClient's path in the plain client's words, naming where:
    /// "cannot connect to example.org:443: connection refused", or "… to the proxy host:port: …".
    /// (AsyncHTTPClient reports a refused connect as a bare errno.) Nil for any other error, and
    /// for a direct ``NIOConnectionError``, which `classify` already describes with its host.
    static func connectFailure(_ error: any Error, url: String, proxy: ProxyEnvironment.Endpoint?) -> TransferError? {
        let target: String
        if let proxy {
            target = "the proxy \(TerminalText.sanitize(proxy.host)):\(proxy.port)"
        } else if let parts = URLParts(url) {
            target = "\(TerminalText.sanitize(parts.host)):\(parts.port ?? (parts.scheme == "https" ? 443 : 80))"
        } else {
            return nil
        }
        switch error {
        case let e as IOError where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(e.errnoCode):
            return .transient("cannot connect to \(target): \(describe(errno: e.errnoCode))")
        case let e as NIOConnectionError where proxy != nil:
            return .transient("cannot connect to \(target): \(reasons(e))")
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
