import Foundation
import HaulCore
import HaulEngine
import HaulRPC

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

    init(
        engine: Engine, downloadDirectory: String, log: @escaping @Sendable (String) -> Void,
        onShutdown: (@Sendable () -> Void)?
    ) {
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
    }

    private func apply(_ settings: RPCSettings?) async {
        guard let settings else { return await stopServing() }
        if let server, server.port == settings.port, await server.service.listensOn(settings.listen) {
            await server.service.update(settings)
            return
        }
        await stopServing()
        let configuration = Aria2Service.Configuration(
            settings: settings, downloadDirectory: downloadDirectory, version: Haul.configuration.version)
        let service = Aria2Service(session: engine, configuration: configuration, onShutdown: onShutdown)
        do {
            try await service.start()
            server = try await RPCServer.start(host: settings.listen, port: settings.port, service: service)
            await engine.setRPCAddress(Self.address(settings.listen, settings.port))
        } catch {
            await service.stop()
            await engine.setRPCAddress(nil)
            log(Self.sentence(for: error, settings))
        }
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
