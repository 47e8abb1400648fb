/// Where things go on a screen of a given size: header, column titles, the list's row
/// slots, a status line and the footer.
public struct ScreenLayout: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    public let headerRow = 0
    public let titleRow = 1
    public var firstListRow: Int { 2 }
    /// How many downloads fit.
    public var slotCount: Int { max(0, height - 4) }
    public var statusRow: Int { height - 2 }
    public var footerRow: Int { height - 1 }

    public func row(forSlot slot: Int) -> Int { firstListRow + slot }
}

/// The columns of a download row at a given width. Narrow screens drop columns in this
/// order: size, bar, ETA, speed, percent; the name keeps at least `nameMinimum` columns.
public struct Columns: Equatable, Sendable {
    public var name: Int
    public var bar: Int
    public var percent: Int
    public var size: Int
    public var speed: Int
    public var eta: Int
    public var state: Int

    public static let marker = 2
    static let nameMinimum = 20

    public static func forWidth(_ width: Int) -> Columns {
        var c = Columns(name: 0, bar: 12, percent: 4, size: 17, speed: 10, eta: 6, state: 11)
        let drops: [WritableKeyPath<Columns, Int>] = [\.size, \.bar, \.eta, \.speed, \.percent]
        var next = 0
        while c.fixedWidth + nameMinimum > width, next < drops.count {
            c[keyPath: drops[next]] = 0
            next += 1
        }
        var spare = max(0, width - c.fixedWidth)
        // Past a comfortable name width, the bar grows too.
        if c.bar > 0, spare > 60 {
            let extra = min(28, (spare - 60) / 2)
            c.bar += extra
            spare -= extra
        }
        c.name = spare
        return c
    }

    /// Everything but the name, with one space after each shown column.
    var fixedWidth: Int {
        Columns.marker + [bar, percent, size, speed, eta, state].reduce(0) { $0 + ($1 > 0 ? $1 + 1 : 0) }
    }
}
