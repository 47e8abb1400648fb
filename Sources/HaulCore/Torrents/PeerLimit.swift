/// The most peers a torrent connects to. It is kept in its download's `connections`, which for a
/// torrent counts peer connections; nil is no limit of its own (libtorrent's global one holds).
public enum PeerLimit {
    /// libtorrent keeps a torrent's own limit at 2 or more.
    public static let fewest = 2
    public static let most = 10_000

    /// The limit a requested count gives: 0 or less is none, as aria2's `bt-max-peers=0` is;
    /// others are brought within ``fewest`` and ``most``.
    public static func from(_ count: Int) -> Int? { count <= 0 ? nil : min(max(count, fewest), most) }

    /// How a limit reads in a sentence: "at most 5 peers", "no peer limit".
    public static func describe(_ limit: Int?) -> String {
        limit.map { "at most \($0) peers" } ?? "no peer limit"
    }
}
