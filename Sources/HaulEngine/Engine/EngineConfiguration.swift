import HaulCore
import HaulHTTP

/// Everything the engine needs to know from outside.
public struct EngineConfiguration: Sendable {
    /// The JSON state file; locked for as long as the engine lives.
    public var statePath: String
    /// What the engine times everything by; tests move their own.
    public var clock: any MonotonicClock = SystemClock()
    public var retryPolicy = RetryPolicy()
    /// Time without a byte before a transfer counts as stalled and is retried.
    public var stallTimeout: Duration = .seconds(30)
    public var connectTimeout: Duration = .seconds(15)
    /// How long a kept-alive connection may sit unused before haul closes it.
    public var idleConnectionTimeout: Duration = .seconds(30)
    public var maxRedirects = 20
    /// Bytes asked of the socket per read; large reads are what make the engine fast.
    public var readSize = 256 * 1024
    /// How often running transfers report progress.
    public var progressInterval: Duration = .milliseconds(100)
    /// The shortest time between two deliveries of events to subscribers while transfers keep
    /// starting and ending (see `EventHub`).
    public var eventPace: Duration = .milliseconds(10)
    /// How soon a state change reaches the disk, and how often progress alone does.
    public var transitionSaveDelay: Duration = .milliseconds(500)
    public var progressSaveInterval: Duration = .seconds(2)
    public var proxies = ProxyEnvironment(environment: [:])
    /// A PEM file of the certificates that https servers are verified against, instead of the
    /// system's (`SSL_CERT_FILE`, as in curl and OpenSSL).
    public var trustedCertificates: String?
    /// How often downloads paused for a full disk look for room again.
    public var diskRecheckInterval: Duration = .seconds(2)
    /// How often `auto` metered mode asks NetworkManager.
    public var meteredProbeInterval: Duration = .seconds(5)
    /// The environment the probe runs with (`HAUL_METERED_PROBE` replaces it in tests).
    public var environment: [String: String] = [:]
    public var userAgent = "haul/0.1"
    /// Whether outcomes are recorded for the next UI while none is attached (a daemon).
    public var recordsAway = false
    /// Whether finished torrents that still owe seeding seed again when the engine starts (a
    /// daemon or the UI: `haul run` ends with its downloads).
    public var seedsFinishedTorrents = false

    public init(statePath: String) {
        self.statePath = statePath
    }

    /// Reads the tunables that tests and power users set through the environment, in seconds
    /// (`HAUL_STALL_TIMEOUT`, `HAUL_RETRY_BASE`, `HAUL_MAX_RETRIES`, `HAUL_METERED_INTERVAL`,
    /// `HAUL_DISK_RECHECK`), plus the proxy variables and `SSL_CERT_FILE`.
    public mutating func apply(environment: [String: String]) {
        self.environment = environment
        proxies = ProxyEnvironment(environment: environment)
        if let file = environment["SSL_CERT_FILE"], !file.isEmpty { trustedCertificates = file }
        func seconds(_ name: String, atLeast least: Double) -> Duration? {
            guard let value = environment[name].flatMap(Double.init), value >= least, value.isFinite else { return nil }
            return .seconds(value)
        }
        if let v = seconds("HAUL_METERED_INTERVAL", atLeast: .leastNonzeroMagnitude) { meteredProbeInterval = v }
        if let v = seconds("HAUL_DISK_RECHECK", atLeast: .leastNonzeroMagnitude) { diskRecheckInterval = v }
        if let v = seconds("HAUL_STALL_TIMEOUT", atLeast: .leastNonzeroMagnitude) { stallTimeout = v }
        if let v = seconds("HAUL_RETRY_BASE", atLeast: 0) { retryPolicy.baseDelay = v }
        if let v = environment["HAUL_MAX_RETRIES"].flatMap(Int.init), v >= 0 { retryPolicy.maxRetries = v }
    }
}

extension EngineConfiguration {
    /// What the HTTP clients take of the configuration.
    var clientSettings: HTTPClientSettings {
        var settings = HTTPClientSettings()
        settings.clock = clock
        settings.connectTimeout = connectTimeout
        settings.stallTimeout = stallTimeout
        settings.idleConnectionTimeout = idleConnectionTimeout
        settings.readSize = readSize
        settings.progressInterval = progressInterval
        settings.proxies = proxies
        settings.trustedCertificates = trustedCertificates
        settings.connectionsPerHost = 2 * ServerConnections.perServer
        return settings
    }
}
