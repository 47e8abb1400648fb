import FoundationEssentials
import HaulCore

/// The settings object of the state file, read and written in the same pass as the downloads.
/// The output is the bytes `StateCoding.encoder()` writes (keys sorted, no limit written when there
/// is none); the objects (a speed limit, a data budget, the RPC endpoint) are Foundation's to write
/// and read, and a key this reader does not know leaves the whole file to Foundation by throwing.
enum SettingsJSON {
    static func write(_ settings: StateDocument.Settings, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"concurrency":"#.utf8)
        JSONBytes.appendDecimal(settings.concurrency, to: &out)
        out.append(contentsOf: #","connections":"#.utf8)
        JSONBytes.appendDecimal(settings.connections, to: &out)
        if let cookieFile = settings.cookieFile {
            out.append(contentsOf: #","cookieFile":"#.utf8)
            JSONBytes.quoted(cookieFile, into: &out)
        }
        object("hooks", settings.hooks, into: &out)
        object("hosts", settings.hosts, into: &out)
        object("meteredBudget", settings.meteredBudget, into: &out)
        if let limit = settings.meteredLimit {
            out.append(contentsOf: #","meteredLimit":"#.utf8)
            JSONBytes.appendDecimal(limit, to: &out)
        }
        out.append(contentsOf: #","meteredMode":""#.utf8)
        out.append(contentsOf: settings.meteredMode.rawValue.utf8)
        out.append(UInt8(ascii: "\""))
        object("meteredUsage", settings.meteredUsage, into: &out)
        object("proxies", settings.proxies, into: &out)
        object("rpc", settings.rpc, into: &out)
        object("speedLimit", settings.speedLimit, into: &out)
        object("torrents", settings.torrents, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A setting that is an object, written by Foundation (as rare as it is small); nothing when nil.
    private static func object<T: Encodable>(_ key: String, _ value: T?, into out: inout [UInt8]) {
        guard let value, let bytes = try? StateCoding.encoder().encode(value) else { return }
        out.append(contentsOf: ",\"\(key)\":".utf8)
        out.append(contentsOf: bytes)
    }

    /// The settings in `raw`, when every field there is known and in its plain form (an
    /// integer, a mode's name, null for no limit, each once); otherwise throws.
    static func read(_ raw: UnsafeBufferPointer<UInt8>) throws(JSONScanner.Unsupported) -> StateDocument.Settings {
        var settings = StateDocument.Settings()
        var seen = Set<String>()
        var scanner = JSONScanner(raw)
        try scanner.object { s, key throws(JSONScanner.Unsupported) in
            guard seen.insert(key).inserted else { throw JSONScanner.Unsupported() }
            switch key {
            case "concurrency":
                settings.concurrency = max(1, Int(try s.int64()))
            case "connections":
                settings.connections = StateDocument.Settings.clampedConnections(Int(try s.int64()))
            case "meteredMode":
                guard let mode = MeteredMode(rawValue: try s.string()) else { throw JSONScanner.Unsupported() }
                settings.meteredMode = mode
            case "cookieFile":
                settings.cookieFile = try s.null() ? nil : try s.string()
            case "meteredLimit":
                settings.meteredLimit = try s.null() ? nil : try s.int64()
            // The objects, few and small, are Foundation's to read.
            case "speedLimit":
                settings.speedLimit = try s.null() ? nil : try StateCoding.decode(SpeedLimit.self, s.rawValue())
            case "meteredBudget":
                settings.meteredBudget = try s.null() ? nil : try StateCoding.decode(DataBudget.self, s.rawValue())
            case "meteredUsage":
                settings.meteredUsage = try s.null() ? nil : try StateCoding.decode(BudgetUsage.self, s.rawValue())
            case "hosts":
                settings.hosts = try s.null() ? nil : try StateCoding.decode(HostSettings.self, s.rawValue())
            case "hooks":
                settings.hooks = try s.null() ? nil : try StateCoding.decode(HookSettings.self, s.rawValue())
            case "proxies":
                settings.proxies = try s.null() ? nil : try StateCoding.decode(ProxySettings.self, s.rawValue())
            case "torrents":
                settings.torrents = try s.null() ? nil : try StateCoding.decode(TorrentSettings.self, s.rawValue())
            case "rpc":
                settings.rpc = try s.null() ? nil : try StateCoding.decode(RPCSettings.self, s.rawValue())
            default:
                throw JSONScanner.Unsupported()
            }
        }
        guard scanner.isAtEnd else { throw JSONScanner.Unsupported() }
        return settings
    }
}
