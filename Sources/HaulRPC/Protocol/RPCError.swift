/// A JSON-RPC error as aria2 answers it: the protocol's own codes for a request that cannot be
/// read, and code 1 with a sentence for a call that failed.
public struct RPCError: Error, Sendable, Equatable {
    public let code: Int
    public let message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// The body is not JSON.
    public static let parse = RPCError(code: -32700, message: "Parse error.")
    /// Not a call: no method, or no id.
    public static let invalidRequest = RPCError(code: -32600, message: "Invalid Request.")
    /// `params` is neither an array nor absent.
    public static let invalidParams = RPCError(code: -32602, message: "Invalid params.")
    /// The secret is missing or wrong.
    public static let unauthorized = failed("Unauthorized")

    /// A call that could not be carried out, and why.
    public static func failed(_ message: String) -> RPCError { RPCError(code: 1, message: message) }

    public static func noSuchMethod(_ name: String) -> RPCError { failed("No such method: \(name)") }

    /// Parameter `index` (counted after the secret) is of another type than the method takes.
    public static func wrongType(at index: Int) -> RPCError {
        failed("The parameter at \(index) has wrong type.")
    }

    public static func missing(at index: Int) -> RPCError {
        failed("The parameter at \(index) is required but missing.")
    }
}
