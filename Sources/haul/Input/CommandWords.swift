import HaulCore

/// Splits a command given as one string (`--on-complete "mpv --fs"`) into words, the way a
/// shell would for quotes and backslashes only: no variables, globs or substitutions, because
/// the words are run directly, never through a shell.
public enum CommandWords {
    public static func split(_ text: String) throws(InputError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped {
                current.append(c)
                escaped = false
                continue
            }
            switch (quote, c) {
            case (nil, "\\"), ("\"", "\\"):
                escaped = true
                inWord = true
            case (nil, "'"), (nil, "\""):
                quote = c
                inWord = true
            case (let q?, _) where c == q:
                quote = nil
            case (nil, _) where c == " " || c == "\t" || c == "\n":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(c)
                inWord = true
            }
        }
        if quote != nil || escaped {
            throw InputError("unfinished quote in the command: \(TerminalText.sanitize(text))")
        }
        if inWord { words.append(current) }
        if words.isEmpty { throw InputError("the command is empty") }
        return words
    }

    /// The words as one string ``split(_:)`` reads back: a word with a space, a quote or a
    /// backslash in it is put in single quotes.
    public static func join(_ words: [String]) -> String {
        words.map { word in
            guard word.isEmpty || word.contains(where: { " \t\n'\"\\".contains($0) }) else { return word }
            return "'" + word.replacing("'", with: "'\"'\"'") + "'"
        }.joined(separator: " ")
    }
}
