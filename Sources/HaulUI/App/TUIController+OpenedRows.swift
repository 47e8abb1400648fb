import HaulCore

/// Opened rows: a download's row with its pieces, connections and last notice on the lines
/// under it (see ``ExpandedRowView``). Opening or closing one rebinds the slots below it.
extension TUIController {
    func setOpened(_ id: DownloadID, _ open: Bool) {
        guard list.opened.contains(id) != open else { return }
        if open { list.opened.insert(id) } else { list.opened.remove(id) }
        _ = scrollToSelection()
        bindSlots()
        // The row's marker changes with it.
        for slot in router.slots.slots(for: id) { router.invalidate(slot) }
    }

    /// A removed download's row is no longer opened.
    func forgetOpened(_ event: EngineEvent) {
        guard !list.opened.isEmpty else { return }
        switch event {
        case .removed(let id): list.opened.remove(id)
        case .removedMany(let ids): list.opened.subtract(ids)
        default: break
        }
    }
}
