/// Bad input from the user: one clear, already terminal-safe message.
public struct InputError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension InputError {
    /// What an engine that has begun to shut down answers every command with, here and over the
    /// socket: a follower tells by it that its owner is leaving rather than refusing.
    public static let engineStopped = InputError("haul has stopped; the command was not applied")
}
