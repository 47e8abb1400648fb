/// Where each download is in a list, by id: the index the engine's table and the UI's list keep
/// beside their rows.
///
/// Ids haul makes are short hex numbers, so they are keyed by their packed value
/// (``DownloadID/packedHex``) with 32-bit positions: a slot is a quarter of a
/// `[DownloadID: Int]`'s, and a TUI holds two such indexes over every download (the sizes are in
/// docs/PERFORMANCE.md). Any other id (a hand-edited state file may hold one) is kept in a second
/// dictionary, so every id is found whatever its form.
public struct PositionIndex: Sendable, Equatable {
    private var hex: [UInt32: Int32] = [:]
    private var other: [DownloadID: Int] = [:]

    public init() {}

    public var count: Int { hex.count + other.count }

    /// How many ids fit before the index grows.
    public var capacity: Int { hex.capacity }

    /// The position of `id`, or nil when it is not in the list; setting nil removes it.
    public subscript(id: DownloadID) -> Int? {
        get {
            if let key = id.packedHex { return hex[key].map(Int.init) }
            return other[id]
        }
        set { updateValue(newValue, forKey: id) }
    }

    /// Sets (or with nil removes) the position of `id`; returns the one it had.
    @discardableResult
    public mutating func updateValue(_ position: Int?, forKey id: DownloadID) -> Int? {
        if let key = id.packedHex {
            let old = hex.setOrRemove(position.map { Int32($0) }, forKey: key)
            return old.map(Int.init)
        }
        return other.setOrRemove(position, forKey: id)
    }

    public mutating func reserveCapacity(_ count: Int) {
        hex.reserveCapacity(count)
    }

    public mutating func removeAll(keepingCapacity: Bool = false) {
        hex.removeAll(keepingCapacity: keepingCapacity)
        other.removeAll(keepingCapacity: keepingCapacity)
    }
}

extension Dictionary {
    /// Sets or (with nil) removes the value for `key`, returning the old one.
    fileprivate mutating func setOrRemove(_ value: Value?, forKey key: Key) -> Value? {
        if let value { return updateValue(value, forKey: key) }
        return removeValue(forKey: key)
    }
}
