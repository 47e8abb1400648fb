import HaulCore

/// A list of downloads as `haul add -i` reads it: one URL per line (as `wget -i` reads it), or
/// aria2's input-file format, where a URL line is followed by indented `name=value` option
/// lines that apply to it.
///
/// Blank lines and lines starting with `#` are skipped. Which options are honoured is the
/// caller's to decide; this type only reads them.
public struct InputFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var url: String
        /// The line the URL is on (1-based), for messages.
        public var line: Int
        /// Its option lines in order; a name may come more than once (`header=`).
        public var options: [Option]
        /// More URLs on the URL line (aria2 reads tab-separated URLs as mirrors of one file).
        public var mirrors: [String]

        public init(url: String, line: Int, options: [Option] = [], mirrors: [String] = []) {
            self.url = url
            self.line = line
            self.options = options
            self.mirrors = mirrors
        }

        /// The last value of the option `name`.
        public func value(_ name: String) -> Option? { options.last { $0.name == name } }
    }

    public struct Option: Sendable, Equatable {
        public var name: String
        public var value: String
        public var line: Int
    }

    public var entries: [Entry]

    public init(parsing text: String) throws(InputError) {
        entries = []
        var number = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let trimmed = String(line).trimmingCharacters(where: \.isWhitespace)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            // An indented `name=value` is an option; an indented URL is still a URL.
            guard line.first?.isWhitespace == true, let option = Self.option(trimmed, line: number) else {
                let urls = trimmed.split(whereSeparator: { $0 == "\t" }).map {
                    String($0).trimmingCharacters(where: \.isWhitespace)
                }
                entries.append(Entry(url: urls[0], line: number, options: [], mirrors: Array(urls.dropFirst())))
                continue
            }
            guard !entries.isEmpty else {
                throw InputError("line \(number) is an option (\(TerminalText.sanitize(option.name))=) before any URL")
            }
            entries[entries.count - 1].options.append(option)
        }
    }

    /// `name=value` with a name of letters, digits and dashes, as aria2's options are named.
    private static func option(_ text: String, line: Int) -> Option? {
        guard let equals = text.firstIndex(of: "="), equals > text.startIndex,
            text[..<equals].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        return Option(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]), line: line)
    }
}
