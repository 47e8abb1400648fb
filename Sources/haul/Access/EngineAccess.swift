import Foundation
import HaulCore
import HaulEngine
import HaulRemote
import HaulStore

/// How a command reaches the engine: through the socket of the haul process that owns the
/// state file (a daemon, a TUI or `haul run`), or, when none runs, by opening the state file
/// itself. One engine owns the state file at a time.
enum EngineAccess {
    case remote(RemoteEngine)
    case local(Engine)

    var session: any EngineSession {
        switch self {
        case .remote(let remote): return remote
        case .local(let engine): return engine
        }
    }

    /// Connects to the owner, else takes the state file. A short-lived command (`haul add`)
    /// holds the lock without serving; that is waited out for up to 10 s (`HAUL_LOCK_WAIT`).
    /// Prints why and throws an exit code when neither works.
    static func open(_ options: StateOptions, configure: (inout EngineConfiguration) -> Void = { _ in }) async throws -> EngineAccess {
        var configuration = options.engineConfiguration()
        configure(&configuration)
        let patience = options.environment["HAUL_LOCK_WAIT"].flatMap(Double.init) ?? 10
        let deadline = Date().addingTimeInterval(patience)
        while true {
            if let remote = try await connect(options) { return .remote(remote) }
            do {
                let engine = try Engine(configuration: configuration)
                if let message = engine.recoveryMessage { Console.warn(message) }
                return .local(engine)
            } catch let held as StateLock.Held {
                if Date() > deadline {
                    Console.error(held.description)
                    throw ExitStatus.stateUnavailable
                }
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                Console.error(String(describing: error))
                throw ExitStatus.stateUnavailable
            }
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
