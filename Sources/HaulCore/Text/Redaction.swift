import FoundationEssentials

/// Hides secrets before text is shown or logged.
public enum Redaction {
    /// `https://user:secret@host/x` → `https://user:***@host/x`.
    public static func url(_ text: String) -> String {
        var bytes = text
        guard bytes.withUTF8({ $0.contains(UInt8(ascii: "@")) }), var components = URLComponents(string: text),
            components.password != nil
        else { return text }
        components.percentEncodedPassword = "***"
        return components.string ?? text
    }

    /// Header names whose values are secrets.
    public static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token",
    ]

    /// `Authorization: Bearer x` → `Authorization: ***`; other headers as they are.
    public static func header(_ header: RequestHeader) -> String {
        secretHeaders.contains(header.name.lowercased()) ? "\(header.name): ***" : "\(header.name): \(header.value)"
    }
}
