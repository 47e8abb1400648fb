/// Bad input from the user: one clear, already terminal-safe message.
public struct InputError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
