import Foundation
import HaulCore

/// The mouse: a click selects the row under it, a second click on it within ``doubleClick``
/// opens its details, the wheel moves through the list, a click on a column title sorts by it
/// (again: back to the queue's order), a click on a key hint does what the key does.
extension TUIController {
    /// Seconds between two clicks on one row that make a double click.
    static let doubleClick = 0.4
    /// Rows the wheel moves per step.
    static let wheelStep = 3

    func handleMouse(_ event: MouseEvent) -> [Effect] {
        switch mode {
        case .list: break
        case .details, .help, .log, .away:
            // A click anywhere closes a box, as Esc does.
            if event.kind == .press || event.kind == .doubleClick { setMode(.list) }
            return []
        default:
            return []
        }
        switch event.kind {
        case .wheelUp: select(selectedIndex - Self.wheelStep)
        case .wheelDown: select(selectedIndex + Self.wheelStep)
        case .press where event.row == layout.titleRow:
            guard let order = TitleView.sort(at: event.column, columns, width: grid.width) else { return [] }
            sort = sort == order ? .queue : order
            listDirty = true
            report("sorted by \(sort.rawValue)")
        case .press where event.row == layout.footerRow:
            guard let key = FooterView.key(at: event.column, width: grid.width) else { return [] }
            return handleList(key)
        case .press:
            let slot = event.row - layout.firstListRow
            guard slot >= 0, slot < layout.slotCount, scroll + slot < visible.count else { return [] }
            let index = scroll + slot
            let now = wallClock().timeIntervalSince1970
            let twice = lastClick.map { $0.index == index && now - $0.time <= Self.doubleClick } ?? false
            select(index)
            if twice {
                lastClick = nil
                return handleList(.enter)
            }
            lastClick = (index, now)
        case .doubleClick:
            let slot = event.row - layout.firstListRow
            guard slot >= 0, slot < layout.slotCount, scroll + slot < visible.count else { return [] }
            select(scroll + slot)
            lastClick = nil
            return handleList(.enter)
        case .release, .rightPress:
            break
        }
        return []
    }
}
