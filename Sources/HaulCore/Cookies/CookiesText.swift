import FoundationEssentials

/// The Netscape cookies.txt format that curl `-b`/`-c`, wget `--load-cookies` and aria2c
/// `--load-cookies` read: one cookie a line, seven tab-separated fields (domain, whether
/// subdomains match, path, secure, expiry in Unix seconds or 0 for a session cookie, name, value).
/// `#HttpOnly_` before a domain is curl's mark for an HTTP-only cookie; other `#` lines are comments.
public enum CookiesText {
    public static func parse(_ text: String) throws(InputError) -> [Cookie] {
        var cookies: [Cookie] = []
        var unreadable = 0
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            var line = Substring(raw)
            if line.hasPrefix("#HttpOnly_") {
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) {
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 7, let expiry = Int64(fields[4].trimmed()),
                !fields[0].isEmpty, !fields[5].isEmpty
            else {
                unreadable += 1
                continue
            }
            var domain = fields[0].lowercased()
            let dotted = domain.hasPrefix(".")
            if dotted { domain.removeFirst() }
            cookies.append(
                Cookie(
                    name: String(fields[5]), value: fields[6...].joined(separator: "\t"), domain: domain,
                    hostOnly: fields[1].uppercased() != "TRUE" && !dotted,
                    path: fields[2].isEmpty ? "/" : String(fields[2]), secure: fields[3].uppercased() == "TRUE",
                    expires: expiry == 0 ? nil : Date(timeIntervalSince1970: Double(expiry))))
        }
        if cookies.isEmpty && unreadable > 0 {
            throw InputError("it is not a cookies.txt file (Netscape format: seven tab-separated fields a line)")
        }
        return cookies
    }
}
