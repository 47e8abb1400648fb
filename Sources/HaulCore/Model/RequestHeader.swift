/// One custom request header of a download (`--header 'K: V'`).
public struct RequestHeader: Codable, Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Headers that haul sets itself; a user-supplied one would break resume or framing.
    static let managedNames: Set<String> = [
        "range", "if-range", "host", "content-length", "transfer-encoding", "connection",
    ]

    /// Parses `Name: value`.
    public static func parse(_ text: String) throws(InputError) -> RequestHeader {
        guard let colon = text.firstIndex(of: ":") else {
            throw InputError("header '\(TerminalText.sanitize(text))' is not of the form 'Name: value'")
        }
        let name = text[..<colon].trimmingASCIIWhitespace()
        let value = text[text.index(after: colon)...].trimmingASCIIWhitespace()
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy({ tokenCharacters.contains($0) }) else {
            throw InputError("header name '\(TerminalText.sanitize(name))' is not a valid HTTP field name")
        }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
            throw InputError("header '\(name)' contains control characters")
        }
        guard !managedNames.contains(name.lowercased()) else {
            throw InputError("header '\(name)' is managed by haul and cannot be set")
        }
        return RequestHeader(name: name, value: value)
    }
}

extension StringProtocol {
    public func trimmingASCIIWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
