import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulRemote
import HaulStore

/// The process that owns the state file (the TUI, `haul run` or `haul daemon`): the engine,
/// the socket other haul processes reach it on, and the completion hooks.
final class EngineHost: Sendable {
    let engine: Engine
    let server: EngineServer
    private let hooks: CompletionHooks
    private let watching: Task<Void, Never>?
    private let rpc: RPCHost

    /// Starts serving `engine` (a socket that cannot be made is a warning: this process still
    /// works, only other commands cannot reach it), its aria2-compatible endpoint while that is
    /// on, and watching for finished downloads. `onShutdownRequest` is how another haul or an
    /// RPC client stops this process; the TUI, which a person quits, has none.
    static func start(
        _ engine: Engine, options: StateOptions, kind: HostKind, onComplete: [String]?,
        log: @escaping @Sendable (String) -> Void, onShutdownRequest: (@Sendable () -> Void)? = nil
    ) async -> EngineHost {
        let server = EngineServer(
            engine: engine, location: options.socketLocation, kind: kind, log: log,
            onShutdownRequest: onShutdownRequest ?? {}
        )
        do {
            try server.start()
        } catch {
            log("other haul commands cannot reach this one: \(error.description)")
        }
        let hooks = CompletionHooks(command: onComplete, environment: options.environment, log: log)
        let watching = try? await hooks.watch(engine)
        let rpc = RPCHost(
            engine: engine, downloadDirectory: StatePaths.downloadDirectory(environment: options.environment), log: log,
            onShutdown: onShutdownRequest)
        await rpc.start()
        return EngineHost(engine: engine, server: server, hooks: hooks, watching: watching ?? nil, rpc: rpc)
    }

    private init(
        engine: Engine, server: EngineServer, hooks: CompletionHooks, watching: Task<Void, Never>?, rpc: RPCHost
    ) {
        self.rpc = rpc
        self.engine = engine
        self.server = server
        self.hooks = hooks
        self.watching = watching
    }

    /// Stops serving, stops the engine (every byte kept), and lets go of the state file.
    func stop() async {
        await rpc.stop()
        await server.stop(draining: 2)
        await engine.shutdown()
        await watching?.value
        hooks.announce()
    }
}

/// `--on-complete`, shared by the commands that run downloads.
struct HookOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A command run for each finished download with the file's path as its last argument, e.g. 'mpv --fs'. "
                + "Run directly, not through a shell.",
            valueName: "command"
        ))
    var onComplete: String?

    func words() throws -> [String]? {
        guard let onComplete else { return nil }
        do { return try CommandWords.split(onComplete) } catch { throw error.reported() }
    }
}
