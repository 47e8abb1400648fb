import FoundationEssentials
import HaulCore

/// The mouse: a click selects the row under it, a second click on it within ``doubleClick``
/// opens its details, the wheel moves through the list, a click on a column title sorts by it
/// (again: back to the queue's order), a click on a key hint does what the key does, a click on
/// a row's marker (its first columns) opens or closes the row.
extension TUIController {
    /// Seconds between two clicks on one row that make a double click.
    static let doubleClick = 0.4
    /// Rows the wheel moves per step.
    static let wheelStep = 3

    func handleMouse(_ event: MouseEvent) -> [Effect] {
        switch mode {
        case .list: break
        case .files(var picker):
            // The wheel moves the cursor; a click goes back to the details.
            switch event.kind {
            case .wheelUp: return handleFiles(.up, &picker)
            case .wheelDown: return handleFiles(.down, &picker)
            case .press, .doubleClick: setMode(.details(picker.id))
            case .release, .rightPress: break
            }
            return []
        case .details, .help, .log:
            // The wheel scrolls a box; a click anywhere closes it, as Esc does.
            switch event.kind {
            case .wheelUp, .wheelDown:
                let from = min(list.boxScroll, 1 << 30)
                let scroll = event.kind == .wheelUp ? max(0, from - Self.wheelStep) : from + Self.wheelStep
                if scroll != list.boxScroll {
                    list.boxScroll = scroll
                    redraw.full = true
                }
            case .press, .doubleClick: setMode(.list)
            case .release, .rightPress: break
            }
            return []
        case .away:
            if event.kind == .press || event.kind == .doubleClick { setMode(.list) }
            return []
        default:
            return []
        }
        switch event.kind {
        case .wheelUp: select(list.selectedIndex - Self.wheelStep)
        case .wheelDown: select(list.selectedIndex + Self.wheelStep)
        case .press where event.row == layout.titleRow:
            guard let order = TitleView.sort(at: event.column, columns, width: grid.width) else { return [] }
            list.sort = list.sort == order ? .queue : order
            redraw.list = true
            report("sorted by \(list.sort.rawValue)")
        case .press where event.row == layout.footerRow:
            guard let key = FooterView.key(at: event.column, width: grid.width) else { return [] }
            return handleList(key)
        case .press:
            guard let place = place(atRow: event.row) else { return [] }
            let now = wallClock().timeIntervalSince1970
            let twice = list.lastClick.map { $0.index == place.index && now - $0.time <= Self.doubleClick } ?? false
            select(place.index)
            // The marker column of a row opens or closes it.
            if place.line == 0, event.column < Columns.marker {
                list.lastClick = nil
                return handleList(.character("x"))
            }
            if twice {
                list.lastClick = nil
                return handleList(.enter)
            }
            list.lastClick = (place.index, now)
        case .doubleClick:
            guard let place = place(atRow: event.row) else { return [] }
            select(place.index)
            list.lastClick = nil
            return handleList(.enter)
        case .release, .rightPress:
            break
        }
        return []
    }

    /// The download (and which of its lines) on a screen row of the list.
    func place(atRow row: Int) -> SlotPlace? {
        let slot = row - layout.firstListRow
        guard slot >= 0, slot < layout.slotCount, slot < list.slotPlaces.count else { return nil }
        return list.slotPlaces[slot]
    }
}
