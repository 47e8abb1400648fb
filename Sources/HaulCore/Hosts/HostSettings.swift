/// Settings for the servers of some hosts (`--for '*.example.org'`): the most connections, a
/// speed limit and request headers (a `User-Agent` a site insists on). They win over the global
/// settings and lose to a download's own; for each setting the first rule matching the host that
/// has one gives it. Per-host proxies are ``ProxySettings``' host rules.
public struct HostSettings: Codable, Sendable, Equatable {
    public struct Rule: Codable, Sendable, Equatable {
        /// A host glob; `*.example.org` covers `example.org` itself too.
        public var pattern: String
        public var connections: Int?
        /// Bytes per second for each download from the host.
        public var speedLimit: Int64?
        public var headers: [RequestHeader]

        public init(pattern: String, connections: Int? = nil, speedLimit: Int64? = nil, headers: [RequestHeader] = []) {
            self.pattern = pattern.lowercased()
            self.connections = connections
            self.speedLimit = speedLimit
            self.headers = headers
        }

        public func matches(_ host: String) -> Bool {
            HostPattern.matches(pattern, host: host)
        }

        public var isEmpty: Bool { connections == nil && speedLimit == nil && headers.isEmpty }
    }

    public var rules: [Rule]

    public init(_ rules: [Rule] = []) { self.rules = rules }

    private func matching(_ host: String?) -> [Rule] {
        guard let host = host?.lowercased() else { return [] }
        return rules.filter { $0.matches(host) }
    }

    public func connections(for host: String?) -> Int? { matching(host).lazy.compactMap(\.connections).first }
    public func speedLimit(for host: String?) -> Int64? { matching(host).lazy.compactMap(\.speedLimit).first }

    /// The headers for `host`: each name from the first matching rule that sets it.
    public func headers(for host: String?) -> [RequestHeader] {
        var seen = Set<String>()
        var headers: [RequestHeader] = []
        for rule in matching(host) {
            for header in rule.headers where seen.insert(header.name.lowercased()).inserted { headers.append(header) }
        }
        return headers
    }

    /// Changes the rule for `pattern` (made when missing, dropped when left empty).
    public mutating func update(_ pattern: String, _ change: (inout Rule) -> Void) {
        let pattern = pattern.lowercased()
        var rule = rules.first { $0.pattern == pattern } ?? Rule(pattern: pattern)
        change(&rule)
        if let index = rules.firstIndex(where: { $0.pattern == pattern }) {
            if rule.isEmpty { rules.remove(at: index) } else { rules[index] = rule }
        } else if !rule.isEmpty {
            rules.append(rule)
        }
    }
}
