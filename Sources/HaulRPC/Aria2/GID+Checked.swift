import HaulAria2Wire

extension GID {
    /// What a caller may name a download by: a GID or a prefix of one, as aria2 accepts.
    /// Throws aria2's error when `text` cannot be one.
    static func checked(_ text: String) throws(RPCError) -> String {
        let lower = text.lowercased()
        guard !lower.isEmpty, lower.count <= 16, lower.utf8.allSatisfy(isLowerHex) else {
            throw .failed("Invalid GID \(text)")
        }
        return lower
    }
}
