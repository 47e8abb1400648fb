import HaulAria2Wire

/// A request body as JSON-RPC 2.0 frames it (one call, or a batch of them) and the replies as
/// aria2 writes them: `{"id":…,"jsonrpc":"2.0","result":…}` or `…"error":{"code":…,"message":…}}`.
public enum RPCEnvelope {
    /// What a body asks for: each entry a call, or the error its reply must carry.
    public enum Request: Sendable, Equatable {
        case single(Entry)
        case batch([Entry])
    }

    public enum Entry: Sendable, Equatable {
        case call(RPCCall)
        case invalid(RPCError, id: JSONValue)
    }

    /// Reads a request body; nil when it is not JSON (the reply is then a parse error).
    public static func read(_ body: some Collection<UInt8>) -> Request? {
        guard let value = JSONValue.parse(body) else { return nil }
        if let elements = value.array { return .batch(elements.map(entry)) }
        return .single(entry(value))
    }

    /// One call of a request, checked as aria2 checks it: an object with an id and a method
    /// name, and parameters that are an array or absent.
    static func entry(_ value: JSONValue) -> Entry {
        guard let id = value["id"] else { return .invalid(.invalidRequest, id: .null) }
        guard let method = value["method"]?.string else { return .invalid(.invalidRequest, id: id) }
        switch value["params"] {
        case nil: return .call(RPCCall(method: method, params: [], id: id))
        case .array(let params)?: return .call(RPCCall(method: method, params: params, id: id))
        default: return .invalid(.invalidParams, id: id)
        }
    }

    /// The reply to one call.
    public static func reply(id: JSONValue, _ outcome: Result<JSONValue, RPCError>) -> JSONValue {
        switch outcome {
        case .success(let result):
            return .object(["id": id, "jsonrpc": .string("2.0"), "result": result])
        case .failure(let error):
            return .object([
                "id": id, "jsonrpc": .string("2.0"),
                "error": .object(["code": .int(Int64(error.code)), "message": .string(error.message)]),
            ])
        }
    }

    /// A notification (no id) of `method` for the download `gid`, as aria2 sends them.
    public static func notification(_ method: String, gid: String) -> JSONValue {
        .object([
            "jsonrpc": .string("2.0"), "method": .string(method),
            "params": .array([.object(["gid": .string(gid)])]),
        ])
    }
}
