import FoundationEssentials

/// A user and password given with a download (`-u`, `--user` and `--password` on the command
/// line, aria2's `http-user` and `http-passwd`), sent as HTTP Basic authentication (RFC 7617) in
/// the request's `Authorization` header, which goes only to the host the URL names.
public struct BasicLogin: Equatable, Sendable {
    public let user: String
    public let password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `Basic` and the base64 of `user:password` in UTF-8.
    public var basicAuthorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
}
