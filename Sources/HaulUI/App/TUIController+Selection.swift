import HaulCore

/// The list on screen: which downloads it shows, in which order, which is selected, and
/// which row slot each is bound to.
extension TUIController {
    public var selectedDownload: Download? {
        guard selectedIndex >= 0, selectedIndex < visible.count else { return nil }
        return model[visible[selectedIndex]]
    }

    func select(_ index: Int) {
        guard !visible.isEmpty else { return }
        let oldSlot = selectedIndex - scroll
        selectedIndex = min(max(0, index), visible.count - 1)
        selectedID = visible[selectedIndex]
        if scrollToSelection() {
            bindSlots()
        } else {
            router.invalidate(oldSlot)
            router.invalidate(selectedIndex - scroll)
        }
    }

    /// Moves the window so the selection is visible; returns whether it moved.
    func scrollToSelection() -> Bool {
        let slots = layout.slotCount
        let old = scroll
        if selectedIndex < scroll { scroll = selectedIndex }
        if selectedIndex >= scroll + slots { scroll = selectedIndex - slots + 1 }
        scroll = max(0, min(scroll, max(0, visible.count - slots)))
        return scroll != old
    }

    /// Binds every slot to the download now shown in it; changed bindings redraw.
    func bindSlots() {
        for slot in 0..<layout.slotCount {
            let index = scroll + slot
            router.bind(slot, to: index < visible.count ? visible[index] : nil)
        }
    }

    func rebuildList(now: Double) {
        listDirty = false
        lastResort = now
        let oldSelectedSlot = selectedIndex - scroll
        let order = model.order
        visible = ListOrdering.sortedPositions(
            filteredPositions(), by: sort, in: model, nameRanks: sort == .name ? nameRanks() : nil
        )
        .map { order[Int($0)] }
        lastFrameReport.listed = visible.count
        if let id = selectedID, let index = visible.firstIndex(of: id) {
            selectedIndex = index
        } else {
            selectedIndex = min(selectedIndex, max(0, visible.count - 1))
        }
        selectedID = visible.isEmpty ? nil : visible[selectedIndex]
        _ = scrollToSelection()
        bindSlots()
        router.invalidate(oldSelectedSlot)
        router.invalidate(selectedIndex - scroll)
        statusDirty = true
    }

    /// The list positions the filter keeps. Typing extends the filter, so the last result is
    /// narrowed further instead of searching every download again.
    func filteredPositions() -> [Int32] {
        let needle = filterText.lowercased()
        guard !needle.isEmpty else { return Array(0..<Int32(model.order.count)) }
        if let cache = filterCache, cache.needle == needle, cache.version == model.structureVersion {
            return cache.positions
        }
        var base: [Int32]?
        if let cache = filterCache, cache.version == model.structureVersion, needle.contains(cache.needle) {
            base = cache.positions
        }
        let positions = ListOrdering.filteredPositions(base, by: needle, in: model)
        lastFrameReport.searched = base?.count ?? model.order.count
        filterCache = (needle, model.structureVersion, positions)
        return positions
    }

    /// Name order, computed once per change of names rather than at every sort.
    func nameRanks() -> [Int32] {
        if let cache = nameRankCache, cache.version == model.namesVersion { return cache.ranks }
        let ranks = ListOrdering.nameRanks(model.searchKeyList)
        lastFrameReport.rankedNames = true
        nameRankCache = (model.namesVersion, ranks)
        return ranks
    }

    /// What a worker needs to compute the name order ahead of time, if it is not known yet.
    public var nameRankRequest: (version: Int, searchKeyList: [String])? {
        if let cache = nameRankCache, cache.version == model.namesVersion { return nil }
        return (model.namesVersion, model.searchKeyList)
    }

    /// Name ranks computed elsewhere; ignored when the names changed meanwhile.
    public func adoptNameRanks(_ ranks: [Int32], version: Int) {
        guard version == model.namesVersion else { return }
        nameRankCache = (version, ranks)
    }
}
