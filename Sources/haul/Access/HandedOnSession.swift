import HaulCore
import HaulRemote

/// A command's session that goes on with whoever has the state next when the haul that owns it
/// begins to stop. Such an owner answers every request with ``InputError/engineStopped`` and
/// applies none of it, so a refused command is sent again to the next owner (or to the state,
/// opened here), a refused read is read there, and a refused save is made already: an owner
/// saves what it applied as it stops. An owner that never ends its stop is given up on after as
/// many owners as a follower follows.
actor HandedOnSession: EngineSession {
    private let options: StateOptions
    private let remote: ConnectOptions?
    private var handOvers = 0

    /// Who the requests go to now: the owner the command reached first, or the one after it.
    private(set) var access: EngineAccess

    init(_ access: EngineAccess, options: StateOptions, remote: ConnectOptions?) {
        self.access = access
        self.options = options
        self.remote = remote
    }

    /// The request sent to the owner now, and again to the next while the owner is stopping.
    private func handedOn<T: Sendable>(_ request: (any EngineSession) async throws -> T) async throws -> T {
        while true {
            do {
                return try await request(access.session)
            } catch let error as InputError where error == .engineStopped {
                guard case .remote(let owner) = access, handOvers < DirectDownload.mostHandOvers else { throw error }
                handOvers += 1
                access = try await EngineAccess.open(options, remote: remote, after: owner)
            }
        }
    }

    func snapshot() async throws -> EngineSnapshot { try await handedOn { try await $0.snapshot() } }

    func download(_ id: DownloadID) async throws -> Download? { try await handedOn { try await $0.download(id) } }

    @discardableResult
    func perform(_ command: EngineCommand) async throws -> [DownloadID] {
        try await handedOn { try await $0.perform(command) }
    }

    func save() async throws {
        do {
            try await access.session.save()
        } catch let error as InputError where error == .engineStopped {
            guard case .remote = access else { throw error }
        }
    }

    func refreshedNetworkStatus() async throws -> NetworkStatus {
        try await handedOn { try await $0.refreshedNetworkStatus() }
    }

    func torrentDetails(_ id: DownloadID) async throws -> TorrentDetails? {
        try await handedOn { try await $0.torrentDetails(id) }
    }

    /// Following an owner is the followers' own work (``EngineAccess/open(_:remote:after:configure:)``):
    /// these go to the owner of now.
    func attach(ui: Bool) async throws -> EngineAttachment { try await access.session.attach(ui: ui) }
    func waitUntilIdle() async throws { try await access.session.waitUntilIdle() }
    func detachUI() async { await access.session.detachUI() }
}

extension EngineAccess {
    /// The session of a command that asks and changes, and is done: ``open(_:remote:connecting:configure:)``'s,
    /// handed on to the next owner when the one it reached begins to stop.
    static func session(_ options: StateOptions, remote: ConnectOptions? = nil) async throws -> HandedOnSession {
        HandedOnSession(try await open(options, remote: remote), options: options, remote: remote)
    }
}
