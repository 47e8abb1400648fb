/// A one-line text field: typing and pasting insert, arrows move, Backspace/Delete erase,
/// Ctrl-U clears, Ctrl-A/Ctrl-E jump to the ends.
public struct LineEditor: Equatable, Sendable {
    public private(set) var text: [Character] = []
    public private(set) var cursor = 0

    public init(_ initial: String = "") {
        text = Array(initial)
        cursor = text.count
    }

    public var string: String { String(text) }

    /// Applies an editing key; returns false for keys the editor does not handle.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let c):
            // Pasted newlines or tabs become nothing; other control characters never enter a field.
            guard !c.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return true }
            text.insert(c, at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            cursor -= 1
            text.remove(at: cursor)
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: cursor)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .control("u"):
            text.removeAll()
            cursor = 0
        default:
            return false
        }
        return true
    }
}
