import HaulAria2Wire

/// One method call of a request: its name, its parameters (the secret still first, if sent)
/// and the id its reply carries.
public struct RPCCall: Sendable, Equatable {
    public var method: String
    public var params: [JSONValue]
    public var id: JSONValue

    public init(method: String, params: [JSONValue], id: JSONValue) {
        self.method = method
        self.params = params
        self.id = id
    }

    /// Takes the secret off the front, as aria2 does for every call: a first parameter that is a
    /// string starting with `token:` is the secret, and anything else means none was sent.
    public mutating func takeToken() -> String? {
        guard case .string(let first)? = params.first, first.hasPrefix("token:") else { return nil }
        params.removeFirst()
        return String(first.dropFirst("token:".count))
    }

    /// Parameter `index` as `T`; nil when absent; throws when of another type.
    func optional<T>(_ index: Int, _ read: (JSONValue) -> T?) throws(RPCError) -> T? {
        guard index < params.count else { return nil }
        guard let value = read(params[index]) else { throw .wrongType(at: index) }
        return value
    }

    /// Parameter `index` as `T`; throws when absent or of another type.
    func required<T>(_ index: Int, _ read: (JSONValue) -> T?) throws(RPCError) -> T {
        guard let value = try optional(index, read) else { throw .missing(at: index) }
        return value
    }
}
