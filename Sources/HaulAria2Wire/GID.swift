import HaulCore

/// A download's GID as aria2's clients know it: 16 hex digits, the same for a download across
/// restarts. haul's ids are hex digits, so a GID is its id after zeros; any other id (from a
/// hand-edited state file) gets the 16 hex digits of a hash of its text.
public enum GID {
    public static func of(_ id: DownloadID) -> String {
        let raw = id.rawValue
        if raw.count <= 16, raw.utf8.allSatisfy(isLowerHex) {
            return String(repeating: "0", count: 16 - raw.count) + raw
        }
        // FNV-1a: stable across runs and builds, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in raw.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The id `gid` names when it is a whole GID of one of haul's own ids; nil otherwise (a
    /// prefix, or a hashed id, is then looked for in the list).
    public static func directID(_ gid: String) -> DownloadID? {
        guard gid.count == 16, gid.hasPrefix("0000000000") else { return nil }
        return DownloadID(rawValue: String(gid.dropFirst(10)))
    }

    /// Whether `byte` is a lower-case hex digit, as a GID is written.
    public static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
