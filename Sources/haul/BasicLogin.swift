import FoundationEssentials

/// A user and password given on the command line (`-u`, `--user`, `--password`), sent as HTTP
/// Basic authentication (RFC 7617) in the request's `Authorization` header, which goes only to
/// the host the URL names.
struct BasicLogin: Equatable {
    let user: String
    let password: String

    /// `Basic` and the base64 of `user:password` in UTF-8.
    var basicAuthorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
}
