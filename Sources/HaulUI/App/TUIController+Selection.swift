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
        let oldSlot = slot(showing: selectedIndex)
        selectedIndex = min(max(0, index), visible.count - 1)
        selectedID = visible[selectedIndex]
        if scrollToSelection() {
            bindSlots()
        } else {
            oldSlot.map { router.invalidate($0) }
            slot(showing: selectedIndex).map { router.invalidate($0) }
        }
    }

    /// The slot that shows the row (not an opened row's lines) of the download at `index`.
    func slot(showing index: Int) -> Int? {
        if opened.isEmpty {
            let slot = index - scroll
            return slot >= 0 && slot < slotPlaces.count ? slot : nil
        }
        return slotPlaces.firstIndex { $0?.index == index && $0?.line == 0 }
    }

    /// How the visible downloads fill the slots: one line each, more for an opened row.
    var listLines: ListLines {
        let visible = visible
        let opened = opened
        guard !opened.isEmpty else { return ListLines(count: visible.count) { _ in 1 } }
        return ListLines(count: visible.count) { opened.contains(visible[$0]) ? 1 + ExpandedRowView.lineCount : 1 }
    }

    /// Moves the window so the selection (and its opened lines) is visible; returns whether it moved.
    func scrollToSelection() -> Bool {
        let old = scroll
        scroll = listLines.scroll(scroll, keeping: selectedIndex, slots: layout.slotCount)
        return scroll != old
    }

    /// Binds every slot to the download now shown in it; changed bindings redraw, and so does a
    /// slot that shows another line of the same download.
    func bindSlots() {
        let places = listLines.places(from: scroll, slots: layout.slotCount)
        for (slot, place) in places.enumerated() {
            router.bind(slot, to: place.map { visible[$0.index] })
            if slot < slotPlaces.count, slotPlaces[slot]?.line != place?.line { router.invalidate(slot) }
        }
        slotPlaces = places
    }

    func rebuildList(now: Double) {
        listDirty = false
        lastResort = now
        let oldSelectedSlot = slot(showing: selectedIndex)
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
        oldSelectedSlot.map { router.invalidate($0) }
        slot(showing: selectedIndex).map { router.invalidate($0) }
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
