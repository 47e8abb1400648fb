/// `-x16` read as `-x 16`, as getopt reads it and as aria2c's and wget's users type it
/// (`aria2c -x16 -s16 URL`); the argument parser takes a short option's value only as the next
/// word. Words after `--`, and a word that is itself an option's value, are left as they are.
enum AttachedValues {
    /// The short options that take a value, in every command.
    static let shortOptionsWithValues: Set<Character> = ["d", "i", "j", "o", "s", "x"]

    static func separated(_ arguments: [String]) -> [String] {
        var words: [String] = []
        words.reserveCapacity(arguments.count)
        var valueNext = false
        for (index, word) in arguments.enumerated() {
            if word == "--" { return words + arguments[index...] }
            defer { valueNext = takesValue(word) }
            guard !valueNext, word.count > 2, word.first == "-" else {
                words.append(word)
                continue
            }
            let letter = word[word.index(after: word.startIndex)]
            guard shortOptionsWithValues.contains(letter) else {
                words.append(word)
                continue
            }
            words.append("-" + String(letter))
            words.append(String(word.dropFirst(2)))
        }
        return words
    }

    /// Whether `word` is an option whose value is the next word.
    private static func takesValue(_ word: String) -> Bool {
        if word.count == 2, word.first == "-", let letter = word.last { return shortOptionsWithValues.contains(letter) }
        return GetCommand.ownOptionsWithValues.contains(word) || GetCommand.rootOptionsWithValues.contains(word)
    }
}
