import HaulCore

/// How the HTTP clients connect, read and give up: the engine's configuration, as the clients
/// need it.
public struct HTTPClientSettings: Sendable {
    /// What a body's progress reports are timed by.
    public var clock: any MonotonicClock = SystemClock()
    /// How long to wait for a connection (TCP and TLS).
    public var connectTimeout: Duration = .seconds(15)
    /// Time without a byte before a response counts as stalled.
    public var stallTimeout: Duration = .seconds(30)
    /// How long a kept-alive connection may sit unused before it is closed.
    public var idleConnectionTimeout: Duration = .seconds(30)
    /// Bytes asked of the socket per read; large reads are what make a transfer fast.
    public var readSize = 256 * 1024
    /// How often a body being written reports its position.
    public var progressInterval: Duration = .milliseconds(100)
    public var proxies = ProxyEnvironment(environment: [:])
    /// A PEM file of the certificates https servers are verified against, instead of the system's.
    public var trustedCertificates: String?
    /// The most connections kept to one host; above the engine's own cap per server, which decides.
    public var connectionsPerHost = 32

    public init() {}
}
