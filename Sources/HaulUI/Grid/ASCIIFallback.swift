/// Text for a terminal whose locale is not UTF-8: only printable ASCII reaches it, each
/// character replaced by one of the same width, so the layout computed with ``DisplayWidth``
/// still holds. The UI's own punctuation gets a look-alike; anything else (a CJK name) becomes
/// `?` per column.
public enum ASCIIFallback {
    static let lookAlikes: [Unicode.Scalar: Character] = [
        "—": "-", "–": "-", "·": "-", "…": "~", "×": "x", "≤": "<", "≥": ">",
        "→": ">", "←": "<", "↑": "^", "↓": "v", "▶": ">", "▼": "v",
        "▏": "|", "█": "#", "▒": "=", "░": "-",
        "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+",
        "‘": "'", "’": "'", "“": "\"", "”": "\"",
    ]

    public static func text(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        for character in text {
            if let ascii = character.asciiValue {
                if ascii >= 0x20 && ascii < 0x7F { out.append(character) }
            } else if let first = character.unicodeScalars.first, let look = lookAlikes[first] {
                out.append(look)
            } else {
                out += String(repeating: "?", count: DisplayWidth.of(character))
            }
        }
        return out
    }
}
