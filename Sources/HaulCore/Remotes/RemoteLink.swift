/// How a UI reaches an engine on another machine over aria2's JSON-RPC, as the header shows it:
/// which engine answers, where, and whether the link holds now.
public struct RemoteLink: Codable, Sendable, Equatable {
    /// The engine behind the address, as `aria2.getVersion` names it.
    public enum Engine: Codable, Sendable, Equatable {
        /// A haul serving RPC: haul's own features (metered mode) work too.
        case haul(version: String)
        /// aria2 itself (or anything else that answers as aria2).
        case aria2(version: String)

        /// "haul 1.4.0", "aria2 1.37.0".
        public var label: String {
            switch self {
            case .haul(let version): "haul \(version)"
            case .aria2(let version): "aria2 \(version)"
            }
        }

        public var isHaul: Bool {
            if case .haul = self { return true }
            return false
        }
    }

    /// The link's state: a lost connection is retried with growing waits.
    public enum State: Codable, Sendable, Equatable {
        case connected
        /// An answer has been awaited for longer than ``RemoteLink/slowAnswer``.
        case slow
        /// Retrying; `problem` is the sentence that says what went wrong.
        case reconnecting(problem: String)
    }

    /// Where the engine is, as the user named it (`nas:6800`, or a saved remote's name).
    /// How long an answer may take before the header says the engine is slow.
    public static let slowAnswer: Duration = .seconds(2)

    public var place: String
    public var engine: Engine
    public var state: State

    public init(place: String, engine: Engine, state: State = .connected) {
        self.place = place
        self.engine = engine
        self.state = state
    }

    /// What a haul-only feature says against aria2; nil when the engine is haul.
    public func unsupported(_ feature: String) -> String? {
        engine.isHaul ? nil : "\(feature) is not supported by aria2"
    }

    /// What the header shows on its right: "aria2 1.37.0 @ nas:6800", "… · reconnecting…".
    public var label: String {
        let base = "\(engine.label) @ \(place)"
        switch state {
        case .connected: return base
        case .slow: return base + " · slow to answer…"
        case .reconnecting: return base + " · reconnecting…"
        }
    }
}
