import HaulCore

/// The list on screen: which downloads it shows, in which order, which is selected, and
/// which row slot each is bound to.
extension TUIController {
    public var selectedDownload: ListRow? {
        guard list.selectedIndex >= 0, list.selectedIndex < list.visible.count else { return nil }
        return model[list.visible[list.selectedIndex]]
    }

    func select(_ index: Int) {
        guard !list.visible.isEmpty else { return }
        let oldSlot = slot(showing: list.selectedIndex)
        list.selectedIndex = min(max(0, index), list.visible.count - 1)
        list.selectedID = list.visible[list.selectedIndex]
        if scrollToSelection() {
            bindSlots()
        } else {
            oldSlot.map { router.invalidate($0) }
            slot(showing: list.selectedIndex).map { router.invalidate($0) }
        }
    }

    /// The slot that shows the row (not an opened row's lines) of the download at `index`.
    func slot(showing index: Int) -> Int? {
        if list.opened.isEmpty {
            let slot = index - list.scroll
            return slot >= 0 && slot < list.slotPlaces.count ? slot : nil
        }
        return list.slotPlaces.firstIndex { $0?.index == index && $0?.line == 0 }
    }

    /// How the visible downloads fill the slots: one line each, more for an opened row.
    var listLines: ListLines {
        let (visible, opened) = (list.visible, list.opened)
        guard !opened.isEmpty else { return ListLines(count: visible.count) { _ in 1 } }
        return ListLines(count: visible.count) { opened.contains(visible[$0]) ? 1 + ExpandedRowView.lineCount : 1 }
    }

    /// Moves the window so the selection (and its opened lines) is visible; returns whether it moved.
    func scrollToSelection() -> Bool {
        let old = list.scroll
        list.scroll = listLines.scroll(list.scroll, keeping: list.selectedIndex, slots: layout.slotCount)
        return list.scroll != old
    }

    /// Binds every slot to the download now shown in it; changed bindings redraw, and so does a
    /// slot that shows another line of the same download.
    func bindSlots() {
        let places = listLines.places(from: list.scroll, slots: layout.slotCount)
        for (slot, place) in places.enumerated() {
            router.bind(slot, to: place.map { list.visible[$0.index] })
            if slot < list.slotPlaces.count, list.slotPlaces[slot]?.line != place?.line { router.invalidate(slot) }
        }
        list.slotPlaces = places
    }

    func rebuildList(now: Double) {
        redraw.list = false
        redraw.lastResort = now
        let oldSelectedSlot = slot(showing: list.selectedIndex)
        let order = model.order
        list.visible = ListOrdering.sortedPositions(
            filteredPositions(), by: list.sort, in: model, nameRanks: list.sort == .name ? nameRanks() : nil
        )
        .map { order[Int($0)] }
        redraw.lastFrame.listed = list.visible.count
        if let id = list.selectedID, let index = list.visible.firstIndex(of: id) {
            list.selectedIndex = index
        } else {
            list.selectedIndex = min(list.selectedIndex, max(0, list.visible.count - 1))
        }
        list.selectedID = list.visible.isEmpty ? nil : list.visible[list.selectedIndex]
        _ = scrollToSelection()
        bindSlots()
        oldSelectedSlot.map { router.invalidate($0) }
        slot(showing: list.selectedIndex).map { router.invalidate($0) }
        redraw.status = true
    }

    /// The list positions the filter keeps. Typing extends the filter, so the last result is
    /// narrowed further instead of searching every download again.
    func filteredPositions() -> [Int32] {
        let needle = list.filterText.lowercased()
        guard !needle.isEmpty else { return Array(0..<Int32(model.order.count)) }
        if let cache = list.filterCache, cache.needle == needle, cache.version == model.structureVersion {
            return cache.positions
        }
        var base: [Int32]?
        if let cache = list.filterCache, cache.version == model.structureVersion, needle.contains(cache.needle) {
            base = cache.positions
        }
        let positions = ListOrdering.filteredPositions(base, by: needle, in: model)
        redraw.lastFrame.searched = base?.count ?? model.order.count
        list.filterCache = (needle, model.structureVersion, positions)
        return positions
    }

    /// Name order, computed once per change of names rather than at every sort.
    func nameRanks() -> [Int32] {
        if let cache = list.nameRankCache, cache.version == model.namesVersion { return cache.ranks }
        let ranks = ListOrdering.nameRanks(model.searchKeyList)
        redraw.lastFrame.rankedNames = true
        list.nameRankCache = (model.namesVersion, ranks)
        return ranks
    }

    /// What a worker needs to compute the name order ahead of time, if it is not known yet.
    public var nameRankRequest: (version: Int, searchKeyList: [String])? {
        if let cache = list.nameRankCache, cache.version == model.namesVersion { return nil }
        return (model.namesVersion, model.searchKeyList)
    }

    /// Name ranks computed elsewhere; ignored when the names changed meanwhile.
    public func adoptNameRanks(_ ranks: [Int32], version: Int) {
        guard version == model.namesVersion else { return }
        list.nameRankCache = (version, ranks)
    }
}
