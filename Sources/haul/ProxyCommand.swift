import ArgumentParser
import HaulCore
import HaulHTTP

/// `haul proxy`: the proxy every download goes through, or one for some hosts (saved).
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Show or set the proxy downloads go through (saved), for all hosts or --for some.",
        discussion: """
            PROXY is http://[user:password@]host:port (https origins through CONNECT), \
            socks5://[user:password@]host:port (names resolved here), socks5h://… (names resolved by the \
            proxy), or none (directly). A download's own \
            (haul add --proxy) comes first, then the first --for rule matching its host, then this one, then \
            http_proxy, https_proxy, all_proxy and no_proxy. A password is kept in the 0600 state file and shown \
            as ***.
            """
    )

    @Argument(help: ArgumentHelp("A proxy URL or none; omit to show.", valueName: "proxy"))
    var proxy: String?

    @Option(
        name: .long, help: ArgumentHelp("Only for hosts matching this glob, e.g. '*.example.org'.", valueName: "host"))
    var `for`: String?

    @Flag(name: .long, help: "Remove the proxy (the global one, or the --for rule).")
    var unset = false

    @OptionGroup var stateOptions: StateOptions

    func validate() throws {
        if unset, proxy != nil { throw ValidationError("--unset takes no proxy") }
        if proxy == nil, !unset, self.for != nil { throw ValidationError("--for goes with a proxy or --unset") }
    }

    func run() async throws {
        var choice: ProxyChoice?
        if let proxy {
            do { choice = try ProxyChoice(parsing: proxy) } catch { throw error.reported() }
        }
        let engine = try await EngineAccess.session(stateOptions)
        do {
            var settings = try await engine.snapshot().proxies ?? ProxySettings()
            if choice != nil || unset {
                if let pattern = self.for?.lowercased() {
                    settings.hosts.removeAll { $0.pattern == pattern }
                    if let choice { settings.hosts.append(.init(pattern: pattern, choice: choice)) }
                } else {
                    settings.global = choice
                }
                try await engine.perform(.setProxies(settings))
                try await engine.save()
            }
            show(settings)
        } catch {
            throw Console.failure(error)
        }
    }

    private func show(_ settings: ProxySettings) {
        Console.out("proxy: \(TerminalText.sanitize(settings.global?.display ?? "not set (the environment's)"))")
        for rule in settings.hosts {
            Console.out("  for \(TerminalText.sanitize(rule.pattern)): \(TerminalText.sanitize(rule.choice.display))")
        }
        let environment = ProxyEnvironment(environment: stateOptions.environment)
        for (name, endpoint) in [("http", environment.http), ("https", environment.https)] {
            if let endpoint { Console.out("environment, \(name): \(ProxyAddress(endpoint).display)") }
        }
    }
}
