import Foundation

/// Validation of URLs that users hand to haul.
public enum DownloadURL {
    public static let supportedSchemes: Set<String> = ["http", "https"]

    /// The http(s) URI for a URL as given (pasted text is encoded as browsers do, see
    /// ``PastedURL``), or a clear error naming it.
    public static func validate(_ text: String) throws(InputError) -> String {
        let given = text.trimmingCharacters(where: \.isWhitespace)
        var shown: String { TerminalText.sanitize(given) }
        guard !given.isEmpty else { throw InputError("empty URL") }
        // Spaces are encoded (people paste them); control characters are never in a link.
        guard !given.unicodeScalars.contains(where: { isSpaceOrControl($0) && $0 != " " }) else {
            throw InputError("'\(shown)' is not a valid URL (it contains control characters)")
        }
        guard let trimmed = PastedURL.uri(from: given) else {
            if given.contains("://") {
                throw InputError("'\(shown)' is not a valid URL (its host name is empty or holds spaces or symbols)")
            }
            throw InputError("'\(shown)' is not a valid URL (expected http://… or https://…)")
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw InputError("'\(shown)' is not a valid URL (expected http://… or https://…)")
        }
        guard supportedSchemes.contains(scheme) else {
            throw InputError(
                "unsupported scheme '\(TerminalText.sanitize(scheme))' in '\(shown)': haul downloads http and https")
        }
        guard let host = components.host, !host.isEmpty else {
            throw InputError("'\(shown)' has no host name")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw InputError("'\(shown)' has an invalid port")
        }
        return trimmed
    }

    private static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x21 || scalar.value == 0x7F }
        return scalar.properties.generalCategory == .control
    }
}
