import HaulCore

/// Routes engine events to the row slots bound to their download and collects what needs
/// redrawing. Any number of events between two frames makes one redraw per row.
public struct EventRouter: Sendable {
    public private(set) var slots: RowSlots
    private var dirtySlots = Set<Int>()
    /// Totals in the header change with every event, on screen or not.
    public private(set) var headerDirty = true

    /// Counters that make the routing observable in tests.
    public private(set) var eventsRouted = 0
    public private(set) var eventsDeliveredToRows = 0
    public private(set) var rowRedraws = 0

    public init(slotCount: Int) {
        slots = RowSlots(count: slotCount)
    }

    /// Delivers `event` to the slots showing its download, if any.
    public mutating func route(_ event: EngineEvent) {
        eventsRouted += 1
        headerDirty = true
        guard let id = event.downloadID else { return }
        let targets = slots.slots(for: id)
        guard !targets.isEmpty else { return }
        eventsDeliveredToRows += 1
        dirtySlots.formUnion(targets)
    }

    /// Binds `slot` to `id`; a changed binding makes the slot dirty.
    public mutating func bind(_ slot: Int, to id: DownloadID?) {
        if slots.bind(slot, to: id) { dirtySlots.insert(slot) }
    }

    public mutating func resize(slotCount: Int) {
        slots.resize(to: slotCount)
        dirtySlots = Set(0..<slotCount)
        headerDirty = true
    }

    /// Forces a slot to redraw (e.g. the selection moved onto it).
    public mutating func invalidate(_ slot: Int) {
        if slot >= 0, slot < slots.count { dirtySlots.insert(slot) }
    }

    /// Forces the header to redraw (its speed graph moved).
    public mutating func invalidateHeader() { headerDirty = true }

    public mutating func invalidateAll() {
        dirtySlots = Set(0..<slots.count)
        headerDirty = true
    }

    /// The slots to redraw in this frame, in order; clears them.
    public mutating func takeDirtySlots() -> [Int] {
        let result = dirtySlots.sorted()
        dirtySlots.removeAll(keepingCapacity: true)
        rowRedraws += result.count
        return result
    }

    public mutating func takeHeaderDirty() -> Bool {
        defer { headerDirty = false }
        return headerDirty
    }
}
