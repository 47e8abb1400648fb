import FoundationEssentials
import HaulCore
import HaulEngine
import HaulRPCClient
import HaulRemote
import HaulStore

/// How a command reaches the engine: through the socket of the haul process that owns the
/// state file (a daemon, a TUI or `haul run`), or, when none runs, by opening the state file
/// itself. One engine owns the state file at a time.
enum EngineAccess {
    case remote(RemoteEngine)
    case local(Engine)
    /// The UI's own engine, for a command typed on its command line.
    case injected(any EngineSession)
    /// An engine on another machine, over aria2's JSON-RPC (`--connect`).
    case rpc(RPCSession)

    /// Set while the UI runs a command: every `open` answers with this session.
    @TaskLocal static var injected: (any EngineSession)?

    var session: any EngineSession {
        switch self {
        case .remote(let remote): return remote
        case .local(let engine): return engine
        case .injected(let session): return session
        case .rpc(let session): return session
        }
    }

    struct Failure: Error {
        let message: String
    }

    /// Connects to the owner, else takes the state file. A short-lived command (`haul add`)
    /// holds the lock without serving; that is waited out for up to 10 s (`HAUL_LOCK_WAIT`).
    /// Prints why and throws an exit code when neither works. Without `connecting`, only the
    /// state file is tried: a daemon a service manager started by a connection to the socket it
    /// will serve must not wait on its own socket.
    static func open(
        _ options: StateOptions, remote: ConnectOptions? = nil, connecting: Bool = true,
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws -> EngineAccess {
        if let injected { return .injected(injected) }
        do {
            let access = try await attempt(options, remote: remote, connecting: connecting, configure: configure)
            if case .local(let engine) = access, let message = engine.recoveryMessage { Console.warn(message) }
            return access
        } catch {
            Console.error(error.message)
            throw ExitStatus.stateUnavailable
        }
    }

    /// ``open(_:configure:)`` without printing (the TUI shows problems itself).
    static func attempt(
        _ options: StateOptions, remote: ConnectOptions? = nil, connecting: Bool = true,
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws(Failure) -> EngineAccess {
        if let remote {
            if let session = try await reach(remote, environment: options.environment, clock: options.clock) {
                return .rpc(session)
            }
        }
        var configuration = options.engineConfiguration()
        configure(&configuration)
        let clock = configuration.clock
        let patience = options.environment["HAUL_LOCK_WAIT"].flatMap(Double.init) ?? 10
        let deadline = clock.now + .milliseconds(Int64(patience * 1000))
        while true {
            do {
                if connecting, let remote = try await RemoteEngine.connect(options.socketLocation) {
                    return .remote(remote)
                }
            } catch {
                throw Failure(message: error.message)
            }
            do {
                return .local(try Engine(configuration: configuration))
            } catch let held as StateLock.Held {
                if clock.now > deadline { throw Failure(message: held.description) }
                try? await clock.sleep(for: .milliseconds(50))
            } catch {
                throw Failure(message: String(describing: error))
            }
        }
    }

    /// The engine `--connect` names, reached; nil without `--connect`. A secret about to cross a
    /// network in clear text is warned about first.
    static func reach(
        _ remote: ConnectOptions, environment: [String: String], clock: any MonotonicClock
    ) async throws(Failure) -> RPCSession? {
        let target: RPCSession.Target
        do throws(InputError) {
            guard let named = try remote.target(environment: environment) else { return nil }
            target = named
        } catch {
            throw Failure(message: error.message)
        }
        if let warning = target.address.cleartextWarning(hasSecret: target.secret != nil) { Console.warn(warning) }
        do {
            return try await RPCSession.connect(target, clock: clock, environment: environment)
        } catch {
            throw Failure(message: error.description)
        }
    }

    /// The owner's socket, or nil when no haul serves this state file.
    static func connect(_ options: StateOptions) async throws -> RemoteEngine? {
        do {
            return try await RemoteEngine.connect(options.socketLocation)
        } catch {
            Console.error(error.message)
            throw ExitStatus.stateUnavailable
        }
    }
}
