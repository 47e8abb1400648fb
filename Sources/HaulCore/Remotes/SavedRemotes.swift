/// The engines on other machines a user named (`haul remote add NAME URL`), so that
/// `--connect NAME` reaches one. Kept in a file only its owner can read: secrets are in it.
public struct SavedRemotes: Codable, Sendable, Equatable {
    public struct Remote: Codable, Sendable, Equatable {
        public var name: String
        /// Its JSON-RPC address: `ws://`, `wss://`, `http://` or `https://`.
        public var url: String
        public var secret: String?

        public init(name: String, url: String, secret: String? = nil) {
            self.name = name
            self.url = url
            self.secret = secret
        }
    }

    public private(set) var remotes: [Remote]

    public init(_ remotes: [Remote] = []) { self.remotes = remotes }

    /// The remote called `name`, if one is.
    public subscript(name: String) -> Remote? { remotes.first { $0.name == name } }

    /// Adds `remote`, or replaces the one of the same name in its place.
    public mutating func save(_ remote: Remote) {
        if let i = remotes.firstIndex(where: { $0.name == remote.name }) {
            remotes[i] = remote
        } else {
            remotes.append(remote)
        }
    }

    /// Forgets `name`; false when there was none by that name.
    @discardableResult
    public mutating func remove(_ name: String) -> Bool {
        let before = remotes.count
        remotes.removeAll { $0.name == name }
        return remotes.count != before
    }

    /// Why `name` cannot name a remote, or nil: it must not look like an address.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a remote needs a name" }
        if name.contains(":") || name.contains("/") || name.contains(where: \.isWhitespace) {
            return "a remote's name has no ':', '/' or spaces (\(TerminalText.sanitize(name)) looks like an address)"
        }
        return nil
    }
}
