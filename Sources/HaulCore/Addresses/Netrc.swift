import FoundationEssentials
import Glibc

/// The credentials of a netrc file (`~/.netrc`, as curl, wget and ftp read it): `machine NAME
/// login USER password PASS` entries and one `default` entry, tokens separated by any white
/// space, double-quoted tokens with backslash escapes, `macdef` bodies skipped.
public struct Netrc: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// Nil for the `default` entry.
        public var machine: String?
        public var login: String?
        public var password: String?
    }

    public var entries: [Entry]

    public init(_ text: String) {
        var entries: [Entry] = []
        var tokens = Self.tokens(text)[...]
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                entries.append(Entry(machine: tokens.popFirst()?.lowercased()))
            case "default":
                entries.append(Entry(machine: nil))
            case "login" where !entries.isEmpty:
                entries[entries.count - 1].login = tokens.popFirst()
            case "password" where !entries.isEmpty:
                entries[entries.count - 1].password = tokens.popFirst()
            case "account":
                _ = tokens.popFirst()
            default:
                continue
            }
        }
        self.entries = entries
    }

    /// The login and password for `host`: its own entry, else the `default` one; nil when
    /// neither has a login.
    public func credentials(for host: String) -> (login: String, password: String)? {
        let host = host.lowercased()
        let entry = entries.first { $0.machine == host } ?? entries.first { $0.machine == nil }
        guard let entry, let login = entry.login else { return nil }
        return (login, entry.password ?? "")
    }

    /// The tokens of `text`, `macdef` bodies (up to an empty line) left out.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            var current = ""
            var inToken = false
            var quoted = false
            var escaped = false
            for character in line {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if quoted {
                    if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        quoted = false
                    } else {
                        current.append(character)
                    }
                } else if character == "\"" {
                    quoted = true
                    inToken = true
                } else if character.isWhitespace {
                    if inToken { tokens.append(current) }
                    current = ""
                    inToken = false
                } else {
                    current.append(character)
                    inToken = true
                }
            }
            if inToken { tokens.append(current) }
            if tokens.count >= 2, tokens[tokens.count - 2] == "macdef" {
                while let body = lines.popFirst(), !body.allSatisfy(\.isWhitespace) {}
            }
        }
        return tokens
    }
}

/// A netrc file on disk, refused when others may read it (as curl and ftp refuse it).
public enum NetrcFile {
    public enum Outcome: Sendable, Equatable {
        case missing
        /// Group or others may read it: its secrets are not used.
        case unsafe(mode: String)
        case unreadable(String)
        case loaded(Netrc)
    }

    /// The file `NETRC` names, else `~/.netrc`.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let path = environment["NETRC"], !path.isEmpty { return path }
        return environment["HOME"].map { $0 + "/.netrc" }
    }

    public static func read(_ path: String) -> Outcome {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        if info.st_mode & 0o077 != 0 { return .unsafe(mode: "0" + String(info.st_mode & 0o777, radix: 8)) }
        guard let data = FileManager.default.contents(atPath: path) else { return .unreadable("cannot read it") }
        return .loaded(Netrc(String(decoding: data, as: UTF8.self)))
    }

    /// The one-line warning for a file whose secrets were not used; nil when there is nothing to say.
    public static func warning(_ outcome: Outcome, path: String) -> String? {
        let shown = TerminalText.sanitize(path)
        switch outcome {
        case .unsafe(let mode):
            return "\(shown) is not used: other users can read it (mode \(mode)); chmod 600 \(shown)"
        case .unreadable(let why):
            return "\(shown) is not used: \(TerminalText.sanitize(why))"
        case .missing, .loaded:
            return nil
        }
    }

    /// `url` with the login and password netrc has for its host, when it carries none and no
    /// `Authorization` header goes with it; `url` unchanged otherwise.
    public static func url(_ url: String, headers: [RequestHeader], netrc: Netrc) -> String {
        guard let parts = URLParts(url), parts.credentials == nil, parts.userinfo == nil,
            !headers.contains(where: { $0.name.lowercased() == "authorization" }),
            let found = netrc.credentials(for: parts.host),
            let separator = url.firstRange(of: "://")
        else { return url }
        let literal = Set("-._~!$&'()*+,;=".unicodeScalars)
        let user = PastedURL.escaped(found.login[...], keeping: literal, keepingEscapes: false)
        let password = PastedURL.escaped(found.password[...], keeping: literal, keepingEscapes: false)
        return String(url[..<separator.upperBound]) + "\(user):\(password)@" + url[separator.upperBound...]
    }
}
