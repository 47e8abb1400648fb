import Foundation

/// Hides secrets before text is shown or logged.
public enum Redaction {
    /// `https://user:secret@host/x` → `https://user:***@host/x`.
    public static func url(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.percentEncodedPassword = "***"
        return components.string ?? text
    }
}
