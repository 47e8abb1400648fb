/// The characters the UI draws with: Unicode blocks and arrows on a UTF-8 terminal,
/// plain ASCII elsewhere.
public struct Glyphs: Sendable, Equatable {
    public var barFull: String
    public var barPartial: [String]
    public var barEmpty: String
    public var ellipsis: String
    public var marker: String
    /// The marker of an opened row (its pieces, connections and notice shown under it).
    public var opened: String
    public var down: String
    public var box: (h: String, v: String, tl: String, tr: String, bl: String, br: String)

    public static let unicode = Glyphs(
        barFull: "█",
        barPartial: ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"],
        barEmpty: "░",
        ellipsis: "…",
        marker: "▶",
        opened: "▼",
        down: "↓",
        box: ("─", "│", "┌", "┐", "└", "┘")
    )
    public static let ascii = Glyphs(
        barFull: "#", barPartial: [""], barEmpty: "-", ellipsis: "~", marker: ">", opened: "v", down: "v",
        box: ("-", "|", "+", "+", "+", "+")
    )

    public static func == (a: Glyphs, b: Glyphs) -> Bool { a.barFull == b.barFull && a.ellipsis == b.ellipsis }
}
