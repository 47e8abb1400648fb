/// What one row slot shows: the download at `index` of the visible list, and which of its lines
/// (0 is its row; an opened row has more lines under it).
public struct SlotPlace: Equatable, Sendable {
    public var index: Int
    public var line: Int

    public init(index: Int, line: Int) {
        self.index = index
        self.line = line
    }
}

/// How the visible downloads fill the row slots when some rows take several lines. The scroll
/// position is the index of the first download shown, so scrolling never starts a screen in
/// the middle of an opened row.
struct ListLines {
    /// How many downloads the list shows.
    let count: Int
    /// The lines the download at an index takes (1, or more when opened).
    let lines: (Int) -> Int

    /// The slots from the download at `scroll` on: each download's lines in turn, nil past the end.
    func places(from scroll: Int, slots: Int) -> [SlotPlace?] {
        var places = [SlotPlace?](repeating: nil, count: max(0, slots))
        var slot = 0
        var index = max(0, scroll)
        while slot < slots, index < count {
            for line in 0..<lines(index) where slot < slots {
                places[slot] = SlotPlace(index: index, line: line)
                slot += 1
            }
            index += 1
        }
        return places
    }

    /// The scroll position that keeps `selected` on screen with its lines (as many as fit),
    /// moving as little as possible from `scroll`, and never leaving empty slots at the bottom
    /// while the list has more above.
    func scroll(_ scroll: Int, keeping selected: Int, slots: Int) -> Int {
        guard count > 0, slots > 0 else { return 0 }
        let selected = min(max(0, selected), count - 1)
        var top = min(max(0, scroll), lastFullStart(slots: slots))
        if selected < top { top = selected }
        // Each download takes at least one line, so nothing above this can show `selected`.
        top = max(top, selected - slots + 1)
        while top < selected, linesBetween(top, selected, cap: slots + 1) > slots { top += 1 }
        return top
    }

    /// The last scroll position whose screen is full (0 when the whole list fits).
    func lastFullStart(slots: Int) -> Int {
        var filled = 0
        var index = count - 1
        while index >= 0 {
            filled += lines(index)
            if filled >= slots { return index }
            index -= 1
        }
        return 0
    }

    /// Lines from the download at `from` through the one at `through`, counting at most to `cap`.
    private func linesBetween(_ from: Int, _ through: Int, cap: Int) -> Int {
        var total = 0
        for index in from...through {
            total += lines(index)
            if total >= cap { break }
        }
        return total
    }
}
