/// The commands the haul that owns the downloads runs when a download finishes or fails and
/// when the queue drains, saved with the state (`haul hooks`) so a service started without
/// flags runs them too. Never settable over RPC: a web page that reached the RPC port must
/// not be able to make haul run a program.
public struct HookSettings: Codable, Sendable, Equatable {
    /// How a download hook is called.
    public enum Arguments: String, Codable, Sendable, CaseIterable {
        /// The command, then the file's path.
        case haul
        /// The command, then the GID, the number of files (1) and the path, as aria2 calls its
        /// `--on-download-complete` scripts, so those scripts work unchanged.
        case aria2
    }

    /// What a hook is run for.
    public enum Event: String, Sendable, CaseIterable {
        case complete = "on-complete"
        case error = "on-error"
        case queueEmpty = "on-queue-empty"
    }

    /// A hook that runs longer is stopped, so one that hangs cannot pile up.
    public static let defaultTimeLimit = 600

    /// Each command as its words (run directly, never through a shell).
    public var onComplete: [String]?
    public var onError: [String]?
    public var onQueueEmpty: [String]?
    public var arguments: Arguments
    /// Seconds a hook may run.
    public var timeLimit: Int

    public init(
        onComplete: [String]? = nil, onError: [String]? = nil, onQueueEmpty: [String]? = nil,
        arguments: Arguments = .haul, timeLimit: Int = defaultTimeLimit
    ) {
        self.onComplete = onComplete
        self.onError = onError
        self.onQueueEmpty = onQueueEmpty
        self.arguments = arguments
        self.timeLimit = timeLimit
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        onComplete = try c.decodeIfPresent([String].self, forKey: .onComplete).flatMap { $0.isEmpty ? nil : $0 }
        onError = try c.decodeIfPresent([String].self, forKey: .onError).flatMap { $0.isEmpty ? nil : $0 }
        onQueueEmpty = try c.decodeIfPresent([String].self, forKey: .onQueueEmpty).flatMap { $0.isEmpty ? nil : $0 }
        arguments = (try? c.decodeIfPresent(Arguments.self, forKey: .arguments)) ?? .haul
        timeLimit = max(1, try c.decodeIfPresent(Int.self, forKey: .timeLimit) ?? Self.defaultTimeLimit)
    }

    /// Whether no hook is set.
    public var isEmpty: Bool { onComplete == nil && onError == nil && onQueueEmpty == nil }

    public func command(for event: Event) -> [String]? {
        switch event {
        case .complete: return onComplete
        case .error: return onError
        case .queueEmpty: return onQueueEmpty
        }
    }

    /// These settings with each hook and choice `other` makes (the process's own flags) in
    /// place of the saved one.
    public func overridden(by other: HookSettings?, argumentsGiven: Bool, timeLimitGiven: Bool) -> HookSettings {
        guard let other else { return self }
        var merged = self
        merged.onComplete = other.onComplete ?? onComplete
        merged.onError = other.onError ?? onError
        merged.onQueueEmpty = other.onQueueEmpty ?? onQueueEmpty
        if argumentsGiven { merged.arguments = other.arguments }
        if timeLimitGiven { merged.timeLimit = other.timeLimit }
        return merged
    }

    /// The words a download hook runs with, for the download `gid` whose file is at `path`.
    public func invocation(_ event: Event, gid: String, path: String) -> [String]? {
        guard let command = command(for: event) else { return nil }
        if event == .queueEmpty { return command }
        switch arguments {
        case .haul: return command + [path]
        case .aria2: return command + [gid, "1", path]
        }
    }
}
