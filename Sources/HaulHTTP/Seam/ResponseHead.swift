import HaulCore

/// A response's status and header fields, as the transfer policy reads them.
public struct ResponseHead: Sendable, Equatable {
    public var status: Int
    /// The header fields as they arrived, in order.
    public var fields: [HTTPField]
    /// Whether it came as a stream of an HTTP/2 connection, which other requests can share.
    public var multiplexed: Bool

    public init(status: Int, fields: [HTTPField], multiplexed: Bool = false) {
        self.status = status
        self.fields = fields
        self.multiplexed = multiplexed
    }

    public init(status: Int, headers: [(String, String)]) {
        self.init(status: status, fields: headers.map { HTTPField(name: $0.0, value: $0.1) })
    }

    /// The value of the field `name`, compared without regard to ASCII case; the last one when
    /// the field is repeated.
    public subscript(_ name: String) -> String? {
        fields.last { $0.name.utf8.count == name.utf8.count && $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Content-Length as a byte count, if present and sane.
    public var contentLength: Int64? {
        self["content-length"].flatMap { Int64($0.trimmingASCIIWhitespace()) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// One header field of a request or a response.
public struct HTTPField: Sendable, Equatable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
