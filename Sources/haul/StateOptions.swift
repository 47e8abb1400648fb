import ArgumentParser
import FoundationEssentials
import Glibc
import HaulCore
import HaulEngine
import HaulRemote
import HaulStore

/// The process's environment, read once: haul never changes its own.
private let processEnvironment = ProcessInfo.processInfo.environment

/// `--state`, shared by every command, and how commands open the engine.
struct StateOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The state file.",
            discussion: "Default: $HAUL_STATE, else $XDG_STATE_HOME/haul/state.json (~/.local/state/haul/state.json).",
            valueName: "path"))
    var state: String?

    /// The process's environment, read once (`ProcessInfo` copies all of it at each call, and
    /// the state path, the socket and the configuration each ask).
    var environment: [String: String] { processEnvironment }

    var statePath: String { StatePaths.stateFile(explicit: state, environment: environment) }

    /// Where the owner of this state file listens.
    var socketLocation: SocketLocation { SocketLocation(statePath: statePath, environment: environment) }

    /// The engine's configuration from the state path and the environment.
    /// The clock commands time their waits by: the one the engine they start runs on.
    var clock: any MonotonicClock { EngineConfiguration(statePath: statePath).clock }

    /// The same clock as local time (`HAUL_CLOCK` and `TZ` hold for it).
    var wallClock: WallClock { WallClock(environment: environment, clock: clock) }

    func engineConfiguration() -> EngineConfiguration {
        var configuration = EngineConfiguration(statePath: statePath)
        configuration.apply(environment: environment)
        return configuration
    }

    /// The downloads, read without taking the lock (the file is always replaced atomically),
    /// with the `.part` sizes on disk as the received bytes. When no haul holds the state, a
    /// download recorded as running was interrupted and is shown as waiting.
    func readDownloads() throws -> DownloadList { try readState().downloads }

    /// ``readDownloads()`` and the saved settings, from one reading of the file.
    func readState() throws -> (downloads: DownloadList, settings: StateDocument.Settings) {
        do {
            let document = try StateFile(path: statePath).loadReadOnly()
            var downloads = document.downloads
            let idle = StateLock.currentHolder(statePath: statePath) == nil
            let now = wallClock.now().toTheMicrosecond
            for i in downloads.indices where downloads[i].state != .finished {
                if idle {
                    Engine.reconcileWithDisk(&downloads[i], now: now)
                } else if let part = downloads[i].partPath {
                    var info = stat()
                    if stat(part, &info) == 0 { downloads[i].receivedBytes = Int64(info.st_size) }
                }
            }
            return (DownloadList(downloads), document.settings)
        } catch {
            Console.error(String(describing: error))
            throw ExitStatus.stateUnavailable
        }
    }
}
