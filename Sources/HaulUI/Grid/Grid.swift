/// An in-memory screen: rows of cells, each a character and a style. Views draw into it;
/// the curses backend copies rows to the terminal; tests read it back as text.
public struct Grid: Sendable {
    public struct Cell: Equatable, Sendable {
        /// One character, or "" for the right half of a wide character.
        public var text: String
        public var style: Style
        public static let blank = Cell(text: " ", style: .plain)
    }

    public private(set) var width: Int
    public private(set) var height: Int
    private var cells: [[Cell]]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    public func cell(_ row: Int, _ column: Int) -> Cell { cells[row][column] }

    /// Clears `row` to blanks in `style`.
    public mutating func clear(row: Int, style: Style = .plain) {
        guard row >= 0, row < height else { return }
        cells[row] = Array(repeating: Cell(text: " ", style: style), count: width)
    }

    /// Writes `text` at (`row`, `column`); returns the column after it. Text past the right
    /// edge (or `limit` columns) is dropped; a wide character never half-shows.
    @discardableResult
    public mutating func write(_ text: String, row: Int, column: Int, style: Style, limit: Int? = nil) -> Int {
        guard row >= 0, row < height else { return column }
        let end = min(width, limit.map { column + $0 } ?? width)
        var x = column
        for character in text {
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if x + w > end { break }
            if x >= 0 {
                clearWideCharacter(row: row, at: x)
                if w == 2 { clearWideCharacter(row: row, at: x + 1) }
                cells[row][x] = Cell(text: String(character), style: style)
                if w == 2 { cells[row][x + 1] = Cell(text: "", style: style) }
            }
            x += w
        }
        return x
    }

    /// Before a cell is overwritten: if it is half of a wide character, blank the other half,
    /// so the row never shows half a character or grows wider than the screen.
    private mutating func clearWideCharacter(row: Int, at x: Int) {
        if cells[row][x].text.isEmpty, x > 0 {
            cells[row][x - 1] = Cell(text: " ", style: cells[row][x - 1].style)
        }
        if x + 1 < width, cells[row][x + 1].text.isEmpty {
            cells[row][x + 1] = Cell(text: " ", style: cells[row][x + 1].style)
        }
    }

    /// Restyles `count` cells from `column` (e.g. the selected row's highlight).
    public mutating func restyle(row: Int, column: Int = 0, count: Int? = nil, _ change: (inout Style) -> Void) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (count ?? width))
        for x in max(0, column)..<max(max(0, column), end) { change(&cells[row][x].style) }
    }

    /// The text of a row, as a terminal would show it.
    public func text(row: Int) -> String {
        cells[row].map(\.text).joined()
    }

    /// Runs of equally styled text in a row: what the backend draws.
    public func spans(row: Int) -> [(column: Int, text: String, style: Style)] {
        var result: [(Int, String, Style)] = []
        var start = 0
        var text = ""
        var style = cells[row].first?.style ?? .plain
        for (x, cell) in cells[row].enumerated() {
            if cell.style != style {
                if !text.isEmpty { result.append((start, text, style)) }
                start = x
                text = ""
                style = cell.style
            }
            text += cell.text
        }
        if !text.isEmpty { result.append((start, text, style)) }
        return result
    }

    /// The whole screen as lines (tests compare these with golden text).
    public var lines: [String] { (0..<height).map { text(row: $0) } }
}
