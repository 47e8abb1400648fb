import ArgumentParser
import FoundationEssentials
import HaulCore
import HaulEngine
import HaulRemote
import HaulStore

/// The process that owns the state file (the TUI, `haul run` or `haul daemon`): the engine,
/// the socket other haul processes reach it on, the RPC endpoint, and the hooks.
final class EngineHost: Sendable {
    let engine: Engine
    let server: EngineServer
    private let hooks: DownloadHooks
    private let watching: Task<Void, Never>
    private let rpc: RPCHost

    /// Starts serving `engine` (a socket that cannot be made is a warning: this process still
    /// works, only other commands cannot reach it), its aria2-compatible endpoint while that is
    /// on, and watching for finished downloads. `onShutdownRequest` is how another haul or an
    /// RPC client stops this process; the TUI, which a person quits, has none.
    static func start(
        _ engine: Engine, options: StateOptions, kind: HostKind, hooks flags: ProcessHooks,
        log: @escaping @Sendable (String) -> Void, hookOutput: (@Sendable (String) -> Void)? = nil,
        onShutdownRequest: (@Sendable () -> Void)? = nil, passed: [PassedSocket] = []
    ) async -> EngineHost {
        let server = EngineServer(
            engine: engine, location: options.socketLocation, kind: kind, log: log,
            onShutdownRequest: onShutdownRequest ?? {}, clock: engine.configuration.clock
        )
        do {
            try server.start(adopting: passed.first { $0.role == .control }?.fd)
        } catch {
            log("other haul commands cannot reach this one: \(error.description)")
        }
        let hooks = DownloadHooks(flags: flags, environment: options.environment, log: log, output: hookOutput)
        let watching = await hooks.watch(engine)
        await engine.whenShuttingDown { server.closeDoor() }
        let rpc = RPCHost(
            engine: engine, downloadDirectory: StatePaths.downloadDirectory(environment: options.environment), log: log,
            onShutdown: onShutdownRequest, passed: passed.first { $0.role == .rpc }?.fd)
        await rpc.start()
        return EngineHost(engine: engine, server: server, hooks: hooks, watching: watching, rpc: rpc)
    }

    private init(
        engine: Engine, server: EngineServer, hooks: DownloadHooks, watching: Task<Void, Never>, rpc: RPCHost
    ) {
        self.rpc = rpc
        self.engine = engine
        self.server = server
        self.hooks = hooks
        self.watching = watching
    }

    /// Whether a client is connected (a command, a TUI, an RPC WebSocket) or one was within
    /// `quiet`: an owner that exits when idle waits for neither.
    func hasClients(within quiet: Duration) async -> Bool {
        let control = server.connections
        if control.count > 0 || control.quietFor < quiet { return true }
        guard let rpc = await rpc.activity else { return false }
        return rpc.listening > 0 || rpc.quietFor < quiet
    }

    /// Stops serving, stops the engine (every byte kept), and lets go of the state file.
    func stop() async {
        await rpc.stop()
        server.closeDoor()
        await server.stop(draining: 2)
        // A queue that drained just before the stop still runs its hook (the watch looks only
        // now and then); a stop in the middle of the queue does not.
        let drained = await engine.isIdle
        await engine.shutdown()
        await watching.value
        if drained { await hooks.queueDrained(engine) }
        await hooks.finish()
    }
}
