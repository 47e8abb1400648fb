import HaulCore
import HaulEngine
import HaulRemote
import Synchronization

/// How a command that followed the haul owning the state (a daemon, the UI, `haul run`) stopped
/// following it.
enum FollowEnd {
    /// Its downloads are done, or Ctrl-C (SIGTERM) stopped the following.
    case done
    /// The owner went away first (it was stopped or died): the command takes the state itself
    /// and goes on with its downloads, as it would have without an owner.
    case ownerLeft
}

/// Set by the command's signal handler: the following ended because it was asked to, not
/// because the owner left.
final class FollowStop: Sendable {
    private let asked = Atomic<Bool>(false)

    func ask() { asked.store(true, ordering: .relaxed) }

    var wasAsked: Bool { asked.load(ordering: .relaxed) }

    /// Whether `owner` left on its own, which the follower must not treat as a failure or a stop.
    func ownerLeft(_ owner: RemoteEngine) -> Bool { owner.isDisconnected && !wasAsked }

    /// A stop that Ctrl-C (SIGTERM) sets as it closes the connection to `owner`; cancel the watch
    /// once the following ends.
    static func watching(_ owner: RemoteEngine) -> (stop: FollowStop, watch: Signals.TerminationWatch) {
        let stop = FollowStop()
        let watch = Signals.onTermination { _ in
            stop.ask()
            owner.close()
        }
        return (stop, watch)
    }

    /// Says that `owner` left and this command goes on.
    static func sayOwnerLeft(_ owner: RemoteEngine) {
        Console.warn("haul (pid \(owner.pid), \(owner.kind.name)) stopped; this command goes on with the downloads")
    }
}

/// What a command that hands downloads to the owner says of it.
enum OwnerNotes {
    /// A `haul URL` that owns the state runs what other commands add or resume only until its own
    /// downloads are done: said where they are given to it (nothing follows them then).
    static func sayRunsUntilItsOwnAreDone(_ owner: RemoteEngine) {
        guard owner.kind == .get else { return }
        Console.warn(
            "haul (pid \(owner.pid), \(owner.kind.name)) fetches them until its own downloads are done; 'haul run' "
                + "goes on with them after it")
    }
}

extension EngineAccess {
    /// Opens the state again for a command whose owner `left` (nil the first time). An owner that
    /// is stopping may still greet for a moment: such a connection is dropped and tried again, for
    /// up to 10 s, so the command waits for the state rather than reaching an owner on its way out.
    static func open(
        _ options: StateOptions, remote: ConnectOptions? = nil, after left: RemoteEngine?,
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws -> EngineAccess {
        let clock = options.clock
        let deadline = clock.now + .seconds(10)
        while true {
            let access = try await open(options, remote: remote, configure: configure)
            guard let left, case .remote(let owner) = access, owner.pid == left.pid, clock.now < deadline else {
                return access
            }
            owner.close()
            try? await clock.sleep(for: .milliseconds(50))
        }
    }
}
