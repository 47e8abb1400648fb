import HaulCore
import HaulStore

/// The engine in-process, as the UI and the commands see it.
extension Engine: EngineSession {
    public func attach(ui: Bool) -> EngineAttachment {
        // A UI shows the whole queue and runs what it adds: a `haul URL` that owns the state and
        // ran only its own downloads runs them all from now on.
        if ui, focus != nil {
            focus = nil
            schedule()
        }
        // Subscribe first: an event racing the snapshot is then seen twice, never missed.
        let events = subscribe()
        return EngineAttachment(snapshot: snapshot(), away: ui ? attachUI() : nil, events: events)
    }

    public func snapshot() -> EngineSnapshot {
        EngineSnapshot(
            downloads: downloads.list, network: networkStatus, connections: settings.connections,
            cookieFile: settings.cookieFile, rpc: settings.rpc, concurrency: settings.concurrency,
            hooks: settings.hooks, proxies: settings.proxies, hosts: settings.hosts, torrents: settings.torrents)
    }

    /// The saved hooks, read by the process that runs them at each event.
    public var hookSettings: HookSettings? { settings.hooks }

    public func save() async throws(InputError) {
        await saveNow()
        if let error = persistence.error { throw InputError("could not save the state file: \(error)") }
    }
}

extension Engine {
    /// Starts only `ids` from now on (`haul URL` fetches what it was given, and leaves the rest
    /// of the queue to whoever runs it).
    public func focus(on ids: Set<DownloadID>) {
        focus = ids
        schedule()
    }

    /// Runs `ids` too, when this engine runs only some downloads (a `haul URL`): what is added,
    /// resumed or followed while it runs is wanted now, not after it. They stop with this engine;
    /// a command that follows them takes them up from their `.part`s.
    func startAlso(_ ids: [DownloadID]) -> [DownloadID] {
        let known = ids.filter { downloads.contains($0) }
        focus?.formUnion(known)
        return known
    }
}
