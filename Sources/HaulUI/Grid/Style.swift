/// The colours the UI uses; the backend maps them to curses pairs or drops them (NO_COLOR).
public enum Color: Int, Sendable, CaseIterable {
    case normal, red, green, yellow, blue, magenta, cyan
}

/// How a span of text looks.
public struct Style: Hashable, Sendable {
    public var color: Color
    public var bold: Bool
    public var reverse: Bool
    public var dim: Bool

    public init(color: Color = .normal, bold: Bool = false, reverse: Bool = false, dim: Bool = false) {
        self.color = color
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    public static let selected = Style(reverse: true)
    public static let title = Style(color: .cyan, bold: true)
    public static let error = Style(color: .red, bold: true)

    public func with(reverse: Bool) -> Style {
        var copy = self
        copy.reverse = reverse
        return copy
    }
}
