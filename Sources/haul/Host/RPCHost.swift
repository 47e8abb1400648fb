import ArgumentParser
import FoundationEssentials
import Glibc
import HaulCore
import HaulEngine
import HaulRPC
import HaulRemote

/// Serves the aria2-compatible endpoint while the saved settings say so: follows the engine's
/// RPC settings, starts, moves or stops the server, and tells the engine where it is served.
/// A port that cannot be had is one line in the log; the process runs on without RPC.
actor RPCHost {
    private let engine: Engine
    private let downloadDirectory: String
    private let log: @Sendable (String) -> Void
    private let onShutdown: (@Sendable () -> Void)?
    private var server: RPCServer?
    private var following: Task<Void, Never>?
    /// The RPC socket a service manager passed in, served instead of binding while the settings
    /// name its port.
    private var passed: Int32?

    init(
        engine: Engine, downloadDirectory: String, log: @escaping @Sendable (String) -> Void,
        onShutdown: (@Sendable () -> Void)?, passed: Int32? = nil
    ) {
        self.passed = passed
        self.engine = engine
        self.downloadDirectory = downloadDirectory
        self.log = log
        self.onShutdown = onShutdown
    }

    func start() async {
        let changes = await engine.rpcSettingsChanges()
        following = Task {
            for await settings in changes { await self.apply(settings) }
            await self.stopServing()
        }
    }

    func stop() async {
        following?.cancel()
        await stopServing()
        if let passed {
            close(passed)
            self.passed = nil
        }
    }

    /// How many WebSockets are connected and when a client was last seen; nil while not serving.
    var activity: (listening: Int, quietFor: Duration)? {
        get async { await server?.service.activity }
    }

    private func apply(_ settings: RPCSettings?) async {
        guard let settings else {
            if passed != nil {
                log("the service listens on an RPC port, but haul rpc is off; run haul service install again")
            }
            return await stopServing()
        }
        if let server, server.port == settings.port, await server.service.listensOn(settings.listen) {
            await server.service.update(settings)
            return
        }
        await stopServing()
        let configuration = Aria2Service.Configuration(
            settings: settings, downloadDirectory: downloadDirectory, version: Haul.configuration.version)
        let service = Aria2Service(
            session: engine, configuration: configuration, onShutdown: onShutdown, clock: engine.configuration.clock)
        do {
            try await service.start()
            server = try await listen(settings, service: service)
            await engine.setRPCAddress(Self.address(settings.listen, settings.port))
        } catch {
            await service.stop()
            await engine.setRPCAddress(nil)
            log(Self.sentence(for: error, settings))
        }
    }

    /// The passed socket when it listens on the settings' port (once: the server owns it from
    /// then on), else a socket of its own.
    private func listen(_ settings: RPCSettings, service: Aria2Service) async throws -> RPCServer {
        if let fd = passed {
            let port = PassedSockets.port(of: fd)
            if port == settings.port {
                passed = nil
                return try await RPCServer.start(adopting: fd, service: service)
            }
            log(
                "the RPC socket passed in listens on port \(port.map(String.init) ?? "?"), but haul rpc says "
                    + "\(settings.port); run haul service install again")
        }
        return try await RPCServer.start(host: settings.listen, port: settings.port, service: service)
    }

    private func stopServing() async {
        guard let server else { return }
        self.server = nil
        await server.stop()
        await engine.setRPCAddress(nil)
    }

    static func address(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    static func sentence(for error: any Error, _ settings: RPCSettings) -> String {
        let place = address(settings.listen, settings.port)
        switch error as? RPCServer.ListenError {
        case .taken?:
            return "RPC is off for now: \(place) is taken by another program (an aria2c?); "
                + "pick another port with haul rpc on --port"
        case .forbidden?:
            return "RPC is off for now: haul may not listen on \(place); pick a port above 1023"
        case .failed(let why)?:
            return "RPC is off for now: haul could not listen on \(place) (\(TerminalText.sanitize(why)))"
        case nil:
            return "RPC is off for now: haul could not follow the engine (\(error))"
        }
    }
}
