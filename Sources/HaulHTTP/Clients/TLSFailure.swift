import HaulCore
import NIOSSL

/// TLS failures in words. NIOSSL describes them as a dump of BoringSSL's error stack, with
/// numeric codes and the path of the C file that raised them; the user needs the reason and,
/// where there is one, what to do about it.
enum TLSFailure {
    /// The failure `error` stands for, or nil when it is not a TLS error.
    static func classify(_ error: any Error) -> TransferFailure? {
        switch error {
        case let e as NIOSSLError:
            switch e {
            case .handshakeFailed(let boring):
                return handshake(reasons(boring))
            case .uncleanShutdown:
                return .retried("the server cut the TLS connection")
            case .shutdownFailed(let boring):
                return .retried(described("the TLS connection did not close cleanly", reasons(boring)))
            case .failedToLoadCertificate, .noSuchFilesystemObject:
                return .final("SSL_CERT_FILE is not a readable file of PEM certificates")
            default:
                return .final("TLS error (\(e))")
            }
        case let e as NIOSSLExtraError where e == .failedToValidateHostname:
            return .final("the server's TLS certificate is for another host name")
        case let e as NIOSSLExtraError:
            return .final("TLS error (\(TerminalText.sanitize(e.description)))")
        case let e as BoringSSLError:
            return handshake(reasons(e))
        default:
            return nil
        }
    }

    private static func handshake(_ reasons: [String]) -> TransferFailure {
        if reasons.contains("CERTIFICATE_VERIFY_FAILED") {
            return .final(
                "the server's TLS certificate is not trusted (self-signed, expired or from an unknown authority); "
                    + "to trust it, set SSL_CERT_FILE to a file with its CA's certificate"
            )
        }
        if reasons.contains("WRONG_VERSION_NUMBER") {
            return .final("the server does not speak TLS on this port (is it plain http://?)")
        }
        return .final(described("TLS handshake failed", reasons))
    }

    /// "TLS handshake failed: no shared cipher", from `NO_SHARED_CIPHER`.
    private static func described(_ what: String, _ reasons: [String]) -> String {
        let words = reasons.map { $0.lowercased().replacing("_", with: " ") }
        return what + (words.isEmpty ? "" : ": " + words.joined(separator: "; "))
    }

    /// BoringSSL's reason names (`CERTIFICATE_VERIFY_FAILED`), from descriptions of the form
    /// `Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at
    /// /path/handshake.cc:320`.
    static func reasons(_ error: BoringSSLError) -> [String] {
        let stack: NIOBoringSSLErrorStack
        switch error {
        case .sslError(let s), .unknownError(let s), .invalidSNIName(let s), .failedToSetALPN(let s): stack = s
        default: return []
        }
        return stack.compactMap { reason(in: $0.description) }
    }

    static func reason(in description: String) -> String? {
        guard let start = description.firstRange(of: "error:") else { return nil }
        var rest = description[start.upperBound...]
        if let at = rest.firstRange(of: " at ") { rest = rest[..<at.lowerBound] }
        guard let name = rest.split(separator: ":").last,
            !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return String(name)
    }

}

extension TransferFailure {
    /// A TLS failure another attempt may get past (a connection cut short).
    fileprivate static func retried(_ text: String) -> TransferFailure {
        TransferFailure(.tls(text), isTransient: true)
    }
    /// A TLS failure that stays until something changes (the certificate, the trust store).
    fileprivate static func final(_ text: String) -> TransferFailure { TransferFailure(.tls(text), isTransient: false) }
}
