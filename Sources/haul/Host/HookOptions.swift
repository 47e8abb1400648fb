import ArgumentParser
import HaulCore

/// The hooks given to the process that owns the downloads (`haul`, `haul run`, `haul daemon`):
/// each takes the place of the saved one (`haul hooks`) for this process only.
struct ProcessHooks: Sendable {
    var settings: HookSettings?
    var argumentsGiven = false
    var timeLimitGiven = false

    static let none = ProcessHooks()
}

/// `--on-complete` and the other hook flags, shared by the commands that run downloads and by
/// `haul hooks`, which saves them.
struct HookOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A command run for each finished download, with the file's path as its last argument, e.g. 'mpv --fs'. "
                + "Run directly, not through a shell.",
            valueName: "command"
        ))
    var onComplete: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A command run for each download that fails (not one you cancel), with the file's path last.",
            valueName: "command"))
    var onError: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A command run once each time the queue drains, e.g. 'systemctl suspend'.", valueName: "command"))
    var onQueueEmpty: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "haul: the path is the last argument; aria2: GID, number of files and path, as aria2 calls its hooks.",
            valueName: "haul|aria2"))
    var hookArgs: HookSettings.Arguments?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a hook may run before it is stopped (default \(HookSettings.defaultTimeLimit)).",
            valueName: "seconds"))
    var hookTimeLimit: Int?

    func validate() throws {
        if let hookTimeLimit, hookTimeLimit < 1 { throw ValidationError("--hook-time-limit is at least 1 second") }
    }

    var isEmpty: Bool {
        onComplete == nil && onError == nil && onQueueEmpty == nil && hookArgs == nil && hookTimeLimit == nil
    }

    /// The hooks as this process's own (nil settings when no flag was given).
    func hooks() throws -> ProcessHooks {
        guard !isEmpty else { return .none }
        do {
            let settings = HookSettings(
                onComplete: try Self.words(onComplete), onError: try Self.words(onError),
                onQueueEmpty: try Self.words(onQueueEmpty),
                arguments: hookArgs ?? .haul, timeLimit: hookTimeLimit ?? HookSettings.defaultTimeLimit)
            return ProcessHooks(
                settings: settings, argumentsGiven: hookArgs != nil, timeLimitGiven: hookTimeLimit != nil)
        } catch {
            throw error.reported()
        }
    }

    /// A command's words; nil for none or an empty one (which `haul hooks` reads as "remove it").
    private static func words(_ command: String?) throws(InputError) -> [String]? {
        guard let command, command.contains(where: { !$0.isWhitespace }) else { return nil }
        return try CommandWords.split(command)
    }

    /// The flags as given, for a daemon that takes over from this process.
    var arguments: [String] {
        var arguments: [String] = []
        if let onComplete { arguments += ["--on-complete", onComplete] }
        if let onError { arguments += ["--on-error", onError] }
        if let onQueueEmpty { arguments += ["--on-queue-empty", onQueueEmpty] }
        if let hookArgs { arguments += ["--hook-args", hookArgs.rawValue] }
        if let hookTimeLimit { arguments += ["--hook-time-limit", String(hookTimeLimit)] }
        return arguments
    }
}

extension HookSettings.Arguments: ExpressibleByArgument {}
