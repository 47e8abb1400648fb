import FoundationEssentials
import Glibc

/// When to try a failed transfer again: exponential back-off with jitter, honouring `Retry-After`.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts after the first before giving up.
    public var maxRetries: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// `Retry-After` longer than this is not waited for: the download fails instead.
    public var maxRetryAfter: Duration

    public init(
        maxRetries: Int = 5, baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(60),
        maxRetryAfter: Duration = .seconds(3600)
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// The policy for a download that allows `tries` attempts in all (wget's `--tries`, aria2's
    /// `max-tries`; 0: no limit); nil keeps this one.
    public func allowing(tries: Int?) -> RetryPolicy {
        guard let tries else { return self }
        var policy = self
        policy.maxRetries = tries == 0 ? Int.max : tries - 1
        return policy
    }

    /// The wait before retry number `attempt` (1-based), or nil to give up.
    /// `jitter` is a random value in 0...1; the delay is spread over the upper half of the window.
    public func delay(beforeRetry attempt: Int, retryAfter: Duration?, jitter: Double) -> Duration? {
        guard attempt <= maxRetries else { return nil }
        if let retryAfter {
            return retryAfter <= maxRetryAfter ? max(.zero, retryAfter) : nil
        }
        // The doubling stops long before `maxDelay` would: with no limit on tries, 2^attempt seconds
        // would overflow `Duration`.
        let window = min(maxDelay, baseDelay * pow(2, Double(min(attempt - 1, 40))))
        return window * (0.5 + 0.5 * min(max(jitter, 0), 1))
    }

    /// Parses `Retry-After`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
    public static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingASCIIWhitespace()
        if let seconds = Int(text) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.parse(text) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }
}
