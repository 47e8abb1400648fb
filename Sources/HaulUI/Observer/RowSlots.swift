import HaulCore

/// The visible rows of the list, each bound to at most one download: what a reused table
/// cell is to its model. Rebinding a slot unbinds its old download first.
public struct RowSlots: Sendable {
    private var boundID: [DownloadID?]
    private var slotsByID: [DownloadID: [Int]] = [:]

    public init(count: Int) {
        boundID = Array(repeating: nil, count: max(0, count))
    }

    public var count: Int { boundID.count }

    public func id(at slot: Int) -> DownloadID? { slot < boundID.count ? boundID[slot] : nil }

    /// The slots showing `id` (constant time).
    public func slots(for id: DownloadID) -> [Int] { slotsByID[id] ?? [] }

    /// Binds `slot` to `id` (nil unbinds). Returns whether the binding changed.
    @discardableResult
    public mutating func bind(_ slot: Int, to id: DownloadID?) -> Bool {
        guard slot < boundID.count, boundID[slot] != id else { return false }
        if let old = boundID[slot] {
            slotsByID[old]?.removeAll { $0 == slot }
            if slotsByID[old]?.isEmpty == true { slotsByID[old] = nil }
        }
        boundID[slot] = id
        if let id { slotsByID[id, default: []].append(slot) }
        return true
    }

    /// Changes the number of slots (a resize); slots past the new count are unbound.
    public mutating func resize(to count: Int) {
        let count = max(0, count)
        if count < boundID.count {
            for slot in count..<boundID.count { bind(slot, to: nil) }
            boundID.removeLast(boundID.count - count)
        } else {
            boundID += Array(repeating: nil, count: count - boundID.count)
        }
    }
}
