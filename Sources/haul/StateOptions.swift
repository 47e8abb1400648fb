import ArgumentParser
import Foundation
import HaulCore
import HaulEngine
import HaulStore

/// `--state`, shared by every command, and how commands open the engine.
struct StateOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The state file.", discussion: "Default: $HAUL_STATE, else $XDG_STATE_HOME/haul/state.json (~/.local/state/haul/state.json).", valueName: "path"))
    var state: String?

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    var statePath: String { StatePaths.stateFile(explicit: state, environment: environment) }

    /// Opens the engine (taking the state-file lock), or prints why not and exits.
    func openEngine() throws -> Engine {
        var configuration = EngineConfiguration(statePath: statePath)
        configuration.apply(environment: environment)
        do {
            let engine = try Engine(configuration: configuration)
            if let message = engine.recoveryMessage { Console.warn(message) }
            return engine
        } catch let held as StateLock.Held {
            Console.error(held.description)
            throw ExitStatus.stateUnavailable
        } catch {
            Console.error(String(describing: error))
            throw ExitStatus.stateUnavailable
        }
    }

    /// The downloads, read without taking the lock (the file is always replaced atomically).
    func readDownloads() throws -> [Download] {
        do {
            return try StateFile(path: statePath).loadReadOnly().downloads
        } catch {
            Console.error(String(describing: error))
            throw ExitStatus.stateUnavailable
        }
    }
}
