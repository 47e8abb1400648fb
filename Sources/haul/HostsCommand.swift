import ArgumentParser
import HaulCore

/// `haul hosts`: the settings kept for some hosts (connections, speed limit, headers, proxy),
/// set with `--for PATTERN` here and on `haul connections`, `haul limit` and `haul proxy`.
struct HostsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hosts",
        abstract: "List the settings kept for some hosts; add headers for them with --for and --header.",
        discussion: """
            A host pattern is a glob ('*.example.org' covers example.org too). A host's settings win over the \
            global ones and lose to a download's own. 'haul connections N --for P', 'haul limit RATE --for P' \
            and 'haul proxy URL --for P' set the others.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The host pattern to change.", valueName: "pattern"))
    var `for`: String?

    @Option(
        name: .long,
        help: ArgumentHelp("A request header for those hosts, 'Name: value' (repeatable).", valueName: "header"))
    var header: [String] = []

    @Flag(name: .long, help: "Remove every setting kept for the pattern (not its proxy).")
    var clear = false

    @OptionGroup var stateOptions: StateOptions

    func validate() throws {
        if self.for == nil, !header.isEmpty || clear { throw ValidationError("--header and --clear go with --for") }
    }

    func run() async throws {
        let headers: [RequestHeader]
        do { headers = try header.map { text throws(InputError) in try RequestHeader.parse(text) } } catch {
            throw error.reported()
        }
        let engine = try await EngineAccess.session(stateOptions)
        do {
            if let pattern = self.for, clear || !headers.isEmpty {
                try await Self.change(pattern, on: engine) { rule in
                    if clear { rule = HostSettings.Rule(pattern: pattern) }
                    for header in headers {
                        rule.headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
                        rule.headers.append(header)
                    }
                }
            }
            let snapshot = try await engine.snapshot()
            Self.show(snapshot.hosts ?? HostSettings(), proxies: snapshot.proxies ?? ProxySettings())
        } catch {
            throw Console.failure(error)
        }
    }

    /// Changes the saved rule for `pattern` through the engine and saves.
    static func change(_ pattern: String, on engine: any EngineSession, _ change: (inout HostSettings.Rule) -> Void)
        async throws
    {
        var hosts = try await engine.snapshot().hosts ?? HostSettings()
        hosts.update(pattern, change)
        try await engine.perform(.setHostSettings(hosts))
        try await engine.save()
    }

    static func show(_ hosts: HostSettings, proxies: ProxySettings) {
        var patterns = hosts.rules.map(\.pattern)
        for rule in proxies.hosts where !patterns.contains(rule.pattern) { patterns.append(rule.pattern) }
        guard !patterns.isEmpty else { return Console.out("no settings for particular hosts") }
        for pattern in patterns {
            var parts: [String] = []
            if let rule = hosts.rules.first(where: { $0.pattern == pattern }) {
                if let count = rule.connections { parts.append("connections \(count)") }
                if let rate = rule.speedLimit { parts.append("limit \(Formatting.rate(Double(rate)))") }
                parts += rule.headers.map { "header \(Redaction.header($0))" }
            }
            if let proxy = proxies.hosts.first(where: { $0.pattern == pattern }) {
                parts.append("proxy \(proxy.choice.display)")
            }
            Console.out("\(TerminalText.sanitize(pattern)): \(TerminalText.sanitize(parts.joined(separator: ", ")))")
        }
    }
}
